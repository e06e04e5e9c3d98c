package dev.tarn.format.deletion;

import static dev.tarn.format.deletion.DeletionVectorTest.TWO_TO_32;
import static dev.tarn.format.deletion.DeletionVectorTest.fromModel;
import static dev.tarn.format.deletion.DeletionVectorTest.randomPositions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FileIO;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeletionIndexFileTest {

    @TempDir java.nio.file.Path dir;

    private final FileIO io = FileIO.flinkFileSystems();
    private final DeletionIndexFile indexFile = new DeletionIndexFile(io);

    @Test
    void theFooterListsEveryVectorAndEachReadsBack() throws IOException {
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("data-b.parquet", DeletionVector.of(0));
        vectors.put("data-a.parquet", DeletionVector.of(3, TWO_TO_32, 9 * TWO_TO_32));
        vectors.put("data-c.parquet", fromModel(randomPositions(new Random(3), 5000)));
        Path path = path("index-1.puffin");

        List<DeletionVectorBlob> written = indexFile.write(path, vectors);
        List<DeletionVectorBlob> footer = indexFile.readFooter(path);

        assertThat(footer).isEqualTo(written);
        assertThat(footer)
                .extracting(DeletionVectorBlob::dataFile)
                .containsExactly("data-b.parquet", "data-a.parquet", "data-c.parquet");
        assertThat(footer.get(0).offset()).isEqualTo(4);
        for (int i = 1; i < footer.size(); i++) {
            assertThat(footer.get(i).offset()).isEqualTo(footer.get(i - 1).end());
        }
        for (DeletionVectorBlob blob : footer) {
            assertThat(indexFile.read(path, blob)).isEqualTo(vectors.get(blob.dataFile()));
            assertThat(blob.cardinality()).isEqualTo(vectors.get(blob.dataFile()).cardinality());
        }
    }

    @Test
    void emptyVectorsAndEmptyFilesAreRefused() {
        Path path = path("index-2.puffin");

        assertThatThrownBy(() -> indexFile.write(path, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Index file " + path + " needs at least one deletion vector, got none");
        assertThatThrownBy(() -> indexFile.write(path, Map.of("data-1", new DeletionVector())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Deletion vector of data file data-1 is empty: a file without deleted"
                                + " rows has no vector");
    }

    @Test
    void aTruncatedFileIsNamed() throws IOException {
        Path path = writeOne("index-3.puffin");
        byte[] bytes = Files.readAllBytes(local(path));
        Files.write(local(path), Arrays.copyOf(bytes, bytes.length - 1));

        assertThatThrownBy(() -> indexFile.readFooter(path))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "Corrupt index file "
                                + path
                                + ": no Puffin magic PFA1 at its end, found 0x00504641"
                                + " (truncated, or not an index file)");
        Files.write(local(path), Arrays.copyOf(bytes, 19));
        assertThatThrownBy(() -> indexFile.readFooter(path))
                .hasMessage("Corrupt index file " + path + ": truncated, 19 bytes");
    }

    @Test
    void aFileThatIsNotPuffinIsNamed() throws IOException {
        Path path = writeOne("index-4.puffin");
        byte[] bytes = Files.readAllBytes(local(path));
        bytes[0] = 'X';
        Files.write(local(path), bytes);

        assertThatThrownBy(() -> indexFile.readFooter(path))
                .hasMessage(
                        "Corrupt index file "
                                + path
                                + ": no Puffin magic PFA1 at its start, found 0x58464131"
                                + " (truncated, or not an index file)");
    }

    @Test
    void compressedFootersAndWrongPayloadSizesAreNamed() throws IOException {
        Path compressed = path("index-5.puffin");
        Files.write(local(compressed), puffin(new byte[0], "{\"blobs\":[]}", 100, 1));
        Path tooLarge = path("index-6.puffin");
        Files.write(local(tooLarge), puffin(new byte[0], "{\"blobs\":[]}", 100, 0));
        Path shifted = path("index-7.puffin");
        Files.write(local(shifted), puffin(new byte[0], "{\"blobs\":[]}", 11, 0));

        assertThatThrownBy(() -> indexFile.readFooter(compressed))
                .hasMessage(
                        "Corrupt index file "
                                + compressed
                                + ": footer flags 0x00000001, expected 0 (an uncompressed"
                                + " footer)");
        assertThatThrownBy(() -> indexFile.readFooter(tooLarge))
                .hasMessage(
                        "Corrupt index file "
                                + tooLarge
                                + ": footer payload size 100 does not fit in a file of 32 bytes");
        assertThatThrownBy(() -> indexFile.readFooter(shifted))
                .hasMessageStartingWith(
                        "Corrupt index file "
                                + shifted
                                + ": no Puffin magic PFA1 at its footer"
                                + " start");
    }

    @Test
    void aFooterThatDoesNotDescribeDeletionVectorsIsNamed() throws IOException {
        byte[] blob = DeletionVectorCodec.encode(DeletionVector.of(1, 2));
        int n = blob.length;
        String good = "\"type\":\"deletion-vector-v1\",\"fields\":[],\"offset\":4,\"length\":" + n;
        String props = "\"properties\":{\"referenced-data-file\":\"f\",\"cardinality\":\"2\"}";

        assertFooterError(blob, "{\"blob\":[]}", "the footer is not a JSON object with 'blobs'");
        assertFooterError(
                blob,
                blobs("\"type\":\"apache-datasketches-theta-v1\",\"offset\":4,\"length\":" + n),
                "blob 0 has type 'apache-datasketches-theta-v1', expected 'deletion-vector-v1'");
        assertFooterError(
                blob,
                blobs(good + ",\"compression-codec\":\"zstd\"," + props),
                "blob 0 has compression-codec 'zstd', but deletion vectors are stored"
                        + " uncompressed");
        assertFooterError(
                blob,
                blobs(good + ",\"properties\":{\"cardinality\":\"2\"}"),
                "blob 0 has no string property 'referenced-data-file', found null");
        assertFooterError(
                blob,
                blobs(
                        good
                                + ",\"properties\":{\"referenced-data-file\":\"f\",\"cardinality\":\"two\"}"),
                "blob 0 has cardinality 'two', not a number");
        assertFooterError(
                blob,
                blobs(
                        "\"type\":\"deletion-vector-v1\",\"offset\":\"4\",\"length\":"
                                + n
                                + ","
                                + props),
                "blob 0 has offset \"4\", not a number");
        assertFooterError(
                blob,
                blobs(good.replace("\"length\":" + n, "\"length\":" + (n + 1)) + "," + props),
                "blob 0 ends at " + (n + 5) + ", past the footer at " + (n + 4));
        assertFooterError(
                concat(blob, blob),
                "{\"blobs\":[{"
                        + good
                        + ","
                        + props
                        + "},{"
                        + good.replace("\"offset\":4", "\"offset\":" + (n + 4))
                        + ","
                        + props
                        + "}]}",
                "data file f has more than one deletion vector");
    }

    @Test
    void aDamagedBlobNamesItsDataFileAndIndexFile() throws IOException {
        Path path = writeOne("index-8.puffin");
        DeletionVectorBlob blob = indexFile.readFooter(path).get(0);
        byte[] bytes = Files.readAllBytes(local(path));
        bytes[(int) blob.end() - 6] ^= 1;
        Files.write(local(path), bytes);

        assertThatThrownBy(() -> indexFile.read(path, blob))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Corrupt deletion vector of data file data-1.parquet in index file "
                                + path
                                + ": CRC-32 mismatch, stored 0x");
    }

    @Test
    void aCardinalityThatDisagreesWithTheFooterIsNamed() throws IOException {
        Path path = writeOne("index-9.puffin");
        DeletionVectorBlob blob = indexFile.readFooter(path).get(0);
        DeletionVectorBlob wrong =
                new DeletionVectorBlob(blob.dataFile(), blob.offset(), blob.length(), 5);

        assertThatThrownBy(() -> indexFile.read(path, wrong))
                .hasMessage(
                        "Corrupt deletion vector of data file data-1.parquet in index file "
                                + path
                                + ": it holds 3 positions, the footer says 5");
    }

    @Test
    void aBlobPastTheEndOfTheFileIsNamed() throws IOException {
        Path path = writeOne("index-10.puffin");
        long size = Files.size(local(path));
        DeletionVectorBlob past = new DeletionVectorBlob("data-1.parquet", size - 10, 40, 3);

        assertThatThrownBy(() -> indexFile.read(path, past))
                .hasMessage(
                        "Corrupt deletion vector of data file data-1.parquet in index file "
                                + path
                                + ": truncated, 40 bytes wanted at offset "
                                + (size - 10)
                                + ", 10 read");
    }

    @Test
    void blobRecordsRefuseImpossibleValues() {
        assertThatThrownBy(() -> new DeletionVectorBlob("", 4, 20, 1))
                .hasMessage("A deletion vector blob needs the data file it applies to, got ''");
        assertThatThrownBy(() -> new DeletionVectorBlob("f", 3, 20, 1))
                .hasMessage(
                        "Deletion vector blob of data file f has offset 3, before the first blob"
                                + " at 4");
        assertThatThrownBy(() -> new DeletionVectorBlob("f", 4, 19, 1))
                .hasMessage(
                        "Deletion vector blob of data file f has length 19, not between 20 and "
                                + Integer.MAX_VALUE);
        assertThatThrownBy(() -> new DeletionVectorBlob("f", 4, 20, 0))
                .hasMessage(
                        "Deletion vector blob of data file f has cardinality 0: a stored vector"
                                + " deletes at least one row");
    }

    private void assertFooterError(byte[] blobs, String json, String reason) throws IOException {
        Path path = path("footer-" + Math.abs(json.hashCode()) + ".puffin");
        byte[] payload = json.getBytes(StandardCharsets.UTF_8);
        Files.write(local(path), puffin(blobs, json, payload.length, 0));
        assertThatThrownBy(() -> indexFile.readFooter(path))
                .isInstanceOf(IOException.class)
                .hasMessage("Corrupt index file " + path + ": footer: " + reason);
    }

    private static String blobs(String blob) {
        return "{\"blobs\":[{" + blob + "}]}";
    }

    /**
     * A Puffin file of {@code blobs} and the footer {@code json}, with the size and flags given.
     */
    static byte[] puffin(byte[] blobs, String json, int payloadSize, int flags) {
        byte[] magic = DeletionIndexFile.MAGIC;
        return concat(
                magic,
                blobs,
                magic,
                json.getBytes(StandardCharsets.UTF_8),
                ByteBuffer.allocate(8)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(payloadSize)
                        .putInt(flags)
                        .array(),
                magic);
    }

    private Path writeOne(String name) throws IOException {
        Path path = path(name);
        indexFile.write(path, Map.of("data-1.parquet", DeletionVector.of(1, 5, TWO_TO_32)));
        return path;
    }

    private Path path(String name) {
        return new Path(dir.resolve(name).toUri());
    }

    private static java.nio.file.Path local(Path path) {
        return java.nio.file.Path.of(path.toUri());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
