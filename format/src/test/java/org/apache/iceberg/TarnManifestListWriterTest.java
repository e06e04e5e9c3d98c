package org.apache.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.iceberg.encryption.PlaintextEncryptionManager;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tarn's manifest list writer writes what Iceberg's own writes, uncompressed: the same bytes but
 * for the Avro sync marker and the codec, and the same manifests (sequence numbers and first row
 * ids assigned) when read. In Iceberg's package, as the writer it is compared with is
 * package-private.
 */
class TarnManifestListWriterTest {

    private static final Schema SCHEMA =
            new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));

    private final InMemoryFileIO io = new InMemoryFileIO();

    /** A data manifest of one file written by snapshot {@code id}, as its writer returns it. */
    private ManifestFile manifest(String dir, int formatVersion, long id) throws IOException {
        ManifestWriter<DataFile> writer =
                ManifestFiles.write(
                        formatVersion,
                        PartitionSpec.unpartitioned(),
                        io.newOutputFile(dir + "m" + id + ".avro"),
                        id);
        try (writer) {
            writer.add(
                    DataFiles.builder(PartitionSpec.unpartitioned())
                            .withPath(dir + "data-" + id + ".parquet")
                            .withFormat(FileFormat.PARQUET)
                            .withFileSizeInBytes(100)
                            .withRecordCount(id)
                            .build());
        }
        return writer.toManifestFile();
    }

    /** {@code manifests} as the list of snapshot {@code id} names them, through Iceberg. */
    private List<ManifestFile> listed(
            String dir, int formatVersion, long id, Long rowId, List<ManifestFile> manifests)
            throws IOException {
        String location = dir + "list-" + id + ".avro";
        ManifestListWriter writer =
                ManifestLists.write(
                        formatVersion,
                        io.newOutputFile(location),
                        PlaintextEncryptionManager.instance(),
                        id,
                        id - 1,
                        id,
                        rowId);
        try (writer) {
            writer.addAll(manifests);
        }
        return ManifestLists.read(io.newInputFile(location));
    }

    /**
     * {@code manifests} as snapshot 3's list, written by {@code writer} to {@code location} through
     * {@link TarnSnapshots#write}, names them, without reading the list.
     */
    private List<ManifestFile> listedByTarn(
            TarnManifestListWriter writer,
            String location,
            List<ManifestFile> manifests,
            Long rowId)
            throws IOException {
        return TarnSnapshots.write(
                        writer,
                        io.newOutputFile(location),
                        3,
                        2L,
                        0L,
                        "append",
                        java.util.Map.of(),
                        0,
                        manifests,
                        rowId)
                .manifests();
    }

    private byte[] withoutSync(String location) throws IOException {
        byte[] bytes;
        try (InputStream in = io.newInputFile(location).newStream()) {
            bytes = in.readAllBytes();
        }
        return withoutSync(bytes);
    }

    private static byte[] withoutSync(byte[] bytes) {
        byte[] sync = Arrays.copyOfRange(bytes, bytes.length - 16, bytes.length);
        for (int i = 0; i + 16 <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + 16, sync, 0, 16)) {
                Arrays.fill(bytes, i, i + 16, (byte) 0);
            }
        }
        return bytes;
    }

    /**
     * The list Iceberg wrote (gzip, its only codec for lists) with its data blocks uncompressed,
     * its file metadata and records as they were: what Tarn writes, as Avro's own writer writes it.
     */
    private byte[] uncompressed(String location) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = io.newInputFile(location).newStream();
                DataFileStream<Object> stream =
                        new DataFileStream<>(in, new GenericDatumReader<>());
                DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>())) {
            assertThat(stream.getMetaString(DataFileConstants.CODEC)).isEqualTo("deflate");
            writer.setCodec(CodecFactory.nullCodec());
            for (String key : stream.getMetaKeys()) {
                if (!key.startsWith("avro.")) {
                    writer.setMeta(key, stream.getMeta(key));
                }
            }
            writer.create(stream.getSchema(), out);
            writer.appendAllFrom(stream, true);
        }
        return withoutSync(out.toByteArray());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void writesTheBytesAndManifestsOfIcebergsWriter(int formatVersion) throws IOException {
        String dir = "/lists-" + formatVersion + "/";
        Long rowId = formatVersion == 3 ? 100L : null;
        // Two manifests of earlier snapshots, as a list names them, and one of snapshot 3.
        List<ManifestFile> manifests =
                new ArrayList<>(
                        listed(
                                dir,
                                formatVersion,
                                2,
                                rowId,
                                List.of(
                                        manifest(dir, formatVersion, 2),
                                        listed(
                                                        dir,
                                                        formatVersion,
                                                        1,
                                                        rowId,
                                                        List.of(manifest(dir, formatVersion, 1)))
                                                .get(0))));
        manifests.add(manifest(dir, formatVersion, 3));
        Long next = formatVersion == 3 ? 200L : null;
        List<ManifestFile> expected = listed(dir, formatVersion, 3, next, manifests);

        TarnManifestListWriter writer = new TarnManifestListWriter(formatVersion);
        writer.write(io.newOutputFile(dir + "first.avro"), 3, 2L, next, manifests);
        Long after = writer.write(io.newOutputFile(dir + "tarn.avro"), 3, 2L, next, manifests);

        byte[] iceberg = uncompressed(dir + "list-3.avro");
        assertThat(withoutSync(dir + "tarn.avro")).isEqualTo(iceberg);
        assertThat(withoutSync(dir + "first.avro")).isEqualTo(iceberg);
        assertThat(ManifestLists.read(io.newInputFile(dir + "tarn.avro")))
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(expected);
        assertThat(after).isEqualTo(formatVersion == 3 ? 200L + 3 : null);
        assertThat(listedByTarn(writer, dir + "snap.avro", manifests, next))
                .as("the manifests as listed, without reading the list")
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(expected);
    }

    /**
     * The next list, of snapshot 4, names the manifests as the list of snapshot 3 holds them and
     * one new: the writer copies the records of the two from its last list, encodes the new one,
     * and writes what Iceberg's writer writes.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void copiesTheRecordsOfTheLastListsManifests(int formatVersion) throws IOException {
        String dir = "/next-" + formatVersion + "/";
        Long rowId = formatVersion == 3 ? 100L : null;
        // One manifest of snapshot 2 as its list names it, one new of snapshot 3.
        List<ManifestFile> first =
                List.of(
                        listed(
                                        dir,
                                        formatVersion,
                                        2,
                                        rowId,
                                        List.of(manifest(dir, formatVersion, 2)))
                                .get(0),
                        manifest(dir, formatVersion, 3));
        TarnManifestListWriter writer = new TarnManifestListWriter(formatVersion);
        List<ManifestFile> listed =
                new ArrayList<>(listedByTarn(writer, dir + "snap-3.avro", first, rowId));
        listed.add(manifest(dir, formatVersion, 4));
        Long next = formatVersion == 3 ? 200L : null;
        List<ManifestFile> expected = listed(dir, formatVersion, 4, next, listed);

        writer.write(io.newOutputFile(dir + "tarn-4.avro"), 4, 3L, next, listed);

        assertThat(withoutSync(dir + "tarn-4.avro")).isEqualTo(uncompressed(dir + "list-4.avro"));
        assertThat(ManifestLists.read(io.newInputFile(dir + "tarn-4.avro")))
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(expected);
    }
}
