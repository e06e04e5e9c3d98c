package dev.tarn.format.deletion;

import static dev.tarn.format.deletion.DeletionVectorTest.TWO_TO_32;
import static dev.tarn.format.deletion.DeletionVectorTest.fromModel;
import static dev.tarn.format.deletion.DeletionVectorTest.positions;
import static dev.tarn.format.deletion.DeletionVectorTest.randomPositions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.io.FileIO;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.puffin.BlobMetadata;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;
import org.apache.iceberg.util.Pair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apache Iceberg's own Puffin and deletion vector code reads Tarn's index files, and back. */
class IcebergInteropTest {

    @TempDir java.nio.file.Path dir;

    private final DeletionIndexFile indexFile = new DeletionIndexFile(FileIO.flinkFileSystems());

    @Test
    void icebergReadsTheVectorsOfATarnIndexFile() throws IOException {
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("s3://lake/t/bucket-0/data-1.parquet", DeletionVector.of(0, 1, 2, 1000));
        vectors.put(
                "s3://lake/t/bucket-0/data-2.parquet",
                DeletionVector.of(TWO_TO_32 - 1, TWO_TO_32, 7 * TWO_TO_32 + 3));
        vectors.put(
                "s3://lake/t/bucket-0/data-3.parquet",
                fromModel(fewKeys(randomPositions(new Random(5), 20_000))));
        File file = dir.resolve("index-tarn.puffin").toFile();
        List<DeletionVectorBlob> written = indexFile.write(new Path(file.toURI()), vectors);

        try (PuffinReader reader = Puffin.read(org.apache.iceberg.Files.localInput(file)).build()) {
            List<BlobMetadata> blobs = reader.fileMetadata().blobs();
            assertThat(blobs).hasSize(3);
            for (int i = 0; i < blobs.size(); i++) {
                BlobMetadata blob = blobs.get(i);
                assertThat(blob.type()).isEqualTo("deletion-vector-v1");
                assertThat(blob.snapshotId()).isEqualTo(-1);
                assertThat(blob.sequenceNumber()).isEqualTo(-1);
                assertThat(blob.compressionCodec()).isNull();
                assertThat(blob.offset()).isEqualTo(written.get(i).offset());
                assertThat(blob.length()).isEqualTo(written.get(i).length());
            }
            for (Pair<BlobMetadata, ByteBuffer> blob : reader.readAll(blobs)) {
                String dataFile = blob.first().properties().get("referenced-data-file");
                DeletionVector expected = vectors.get(dataFile);
                assertThat(blob.first().properties())
                        .containsEntry("cardinality", Long.toString(expected.cardinality()));
                PositionDeleteIndex index =
                        PositionDeleteIndex.deserialize(
                                bytes(blob.second()), dvFile(file, blob.first(), dataFile));
                List<Long> deleted = new ArrayList<>();
                index.forEach(deleted::add);
                assertThat(deleted).isEqualTo(positions(expected));
            }
        }
    }

    @Test
    void tarnReadsTheVectorsIcebergWrites() throws IOException {
        Random random = new Random(9);
        Map<String, TreeSet<Long>> models = new LinkedHashMap<>();
        models.put("file:/t/data-1.parquet", new TreeSet<>(List.of(5L)));
        models.put("file:/t/data-2.parquet", fewKeys(randomPositions(random, 10_000)));
        models.put("file:/t/data-3.parquet", new TreeSet<>(List.of(0L, 3 * TWO_TO_32)));
        File file = dir.resolve("index-iceberg.puffin").toFile();
        List<DeleteFile> dvs = writeWithIceberg(file, models);

        List<DeletionVectorBlob> blobs = indexFile.readFooter(new Path(file.toURI()));

        assertThat(blobs).hasSize(3);
        for (DeleteFile dv : dvs) {
            DeletionVectorBlob blob =
                    blobs.stream()
                            .filter(b -> b.dataFile().equals(dv.referencedDataFile()))
                            .findFirst()
                            .orElseThrow();
            assertThat(blob.offset()).isEqualTo(dv.contentOffset());
            assertThat(blob.length()).isEqualTo(dv.contentSizeInBytes());
            assertThat(blob.cardinality()).isEqualTo(dv.recordCount());
            assertThat(positions(indexFile.read(new Path(file.toURI()), blob)))
                    .containsExactlyElementsOf(models.get(blob.dataFile()));
        }
    }

    @Test
    void tarnEncodesAVectorToTheBytesIcebergWrites() throws IOException {
        // Iceberg stores a bitmap for every key up to the largest, Tarn only the non-empty ones:
        // the bytes agree where no key in between is empty, as for every file below 2^32 rows.
        Map<String, TreeSet<Long>> models = new LinkedHashMap<>();
        models.put("file:/t/one.parquet", new TreeSet<>(List.of(42L)));
        TreeSet<Long> runs = new TreeSet<>();
        for (long position = 10; position < 70_000; position += position % 1000 < 500 ? 1 : 7) {
            runs.add(position);
        }
        models.put("file:/t/runs.parquet", runs);
        TreeSet<Long> twoKeys = randomPositions(new Random(1), 3000);
        twoKeys.removeIf(position -> position >= 2 * TWO_TO_32);
        twoKeys.add(TWO_TO_32 + 1);
        twoKeys.add(1L);
        models.put("file:/t/two-keys.parquet", twoKeys);
        File file = dir.resolve("index-bytes.puffin").toFile();
        List<DeleteFile> dvs = writeWithIceberg(file, models);
        byte[] icebergFile = Files.readAllBytes(file.toPath());

        for (DeleteFile dv : dvs) {
            int offset = Math.toIntExact(dv.contentOffset());
            byte[] iceberg =
                    Arrays.copyOfRange(
                            icebergFile, offset, offset + Math.toIntExact(dv.contentSizeInBytes()));
            byte[] tarn =
                    DeletionVectorCodec.encode(fromModel(models.get(dv.referencedDataFile())));
            assertThat(tarn).as(dv.referencedDataFile()).isEqualTo(iceberg);
        }
    }

    @SuppressWarnings("deprecation") // the constructor that takes a plain output file
    private static List<DeleteFile> writeWithIceberg(File file, Map<String, TreeSet<Long>> models)
            throws IOException {
        BaseDVFileWriter writer =
                new BaseDVFileWriter(
                        () -> org.apache.iceberg.Files.localOutput(file), path -> null);
        try (writer) {
            for (Map.Entry<String, TreeSet<Long>> model : models.entrySet()) {
                for (long position : model.getValue()) {
                    writer.delete(model.getKey(), position, PartitionSpec.unpartitioned(), null);
                }
            }
        }
        return writer.result().deleteFiles();
    }

    /**
     * {@code positions} below 8 * 2^32: Iceberg's bitmap holds an array entry for every key up to
     * the largest, so a far position would cost it gigabytes.
     */
    private static TreeSet<Long> fewKeys(TreeSet<Long> positions) {
        return new TreeSet<>(positions.headSet(8 * TWO_TO_32));
    }

    /** The delete file Iceberg's table metadata would record for the vector {@code blob}. */
    private static DeleteFile dvFile(File file, BlobMetadata blob, String dataFile) {
        return FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
                .ofPositionDeletes()
                .withFormat(FileFormat.PUFFIN)
                .withPath(file.getPath())
                .withFileSizeInBytes(file.length())
                .withReferencedDataFile(dataFile)
                .withContentOffset(blob.offset())
                .withContentSizeInBytes(blob.length())
                .withRecordCount(Long.parseLong(blob.properties().get("cardinality")))
                .build();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
