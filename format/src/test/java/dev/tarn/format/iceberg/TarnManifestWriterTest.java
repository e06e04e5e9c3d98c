package dev.tarn.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TarnManifestEntries;
import org.apache.iceberg.TarnManifestWriter;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tarn's writer of the data manifest of one commit writes what Iceberg's own manifest writer writes
 * with {@code write.avro.compression-codec} = {@code uncompressed}: the same bytes but for the Avro
 * sync marker, and the same manifest file description.
 */
class TarnManifestWriterTest {

    /** Iceberg's writer properties for manifests without compression, as Tarn writes them. */
    private static final Map<String, String> UNCOMPRESSED =
            Map.of(TableProperties.AVRO_COMPRESSION, "uncompressed");

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.optional(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "dt", Types.StringType.get()));

    private final InMemoryFileIO io = new InMemoryFileIO();

    private static PartitionSpec spec(boolean partitioned) {
        return partitioned
                ? PartitionSpec.builderFor(SCHEMA).identity("dt").build()
                : PartitionSpec.unpartitioned();
    }

    private static List<DataFile> files(PartitionSpec spec) {
        return files(spec, 3);
    }

    private static List<DataFile> files(PartitionSpec spec, int count) {
        List<DataFile> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            DataFiles.Builder file =
                    DataFiles.builder(spec)
                            .withPath("/t/dt=d" + i + "/data-" + i + ".parquet")
                            .withFormat(FileFormat.PARQUET)
                            .withFileSizeInBytes(1000 + i)
                            .withRecordCount(10 + i)
                            .withMetrics(
                                    new Metrics(
                                            10L + i,
                                            null,
                                            Map.of(1, 10L + i, 2, 10L + i),
                                            Map.of(1, 0L, 2, (long) i),
                                            null,
                                            Map.of(1, bound(i)),
                                            Map.of(1, bound(i + 100))));
            if (spec.isPartitioned()) {
                file.withPartitionPath("dt=d" + i % 3);
            }
            files.add(file.build());
        }
        return files;
    }

    private static ByteBuffer bound(long value) {
        return Conversions.toByteBuffer(Types.LongType.get(), value);
    }

    /** The file's bytes with every occurrence of its sync marker (its last 16 bytes) zeroed. */
    private byte[] withoutSync(String location) throws IOException {
        byte[] bytes;
        try (InputStream in = io.newInputFile(location).newStream()) {
            bytes = in.readAllBytes();
        }
        byte[] sync = Arrays.copyOfRange(bytes, bytes.length - 16, bytes.length);
        for (int i = 0; i + 16 <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + 16, sync, 0, 16)) {
                Arrays.fill(bytes, i, i + 16, (byte) 0);
            }
        }
        return bytes;
    }

    private List<String> entries(ManifestFile manifest, PartitionSpec spec) throws IOException {
        List<String> entries = new ArrayList<>();
        try (ManifestReader<DataFile> reader =
                ManifestFiles.read(manifest, io, Map.of(spec.specId(), spec))) {
            for (DataFile f : reader) {
                entries.add(
                        f.location()
                                + " "
                                + f.partition()
                                + " "
                                + f.recordCount()
                                + " "
                                + f.nullValueCounts()
                                + " "
                                + f.lowerBounds()
                                + " "
                                + f.upperBounds());
            }
        }
        return entries;
    }

    @ParameterizedTest
    @CsvSource({"2, false", "2, true", "3, false", "3, true"})
    void writesTheBytesAndDescriptionOfIcebergsWriter(int formatVersion, boolean partitioned)
            throws IOException {
        PartitionSpec spec = spec(partitioned);
        List<DataFile> files = files(spec);
        String dir = "/m/" + formatVersion + "-" + partitioned + "/";
        ManifestWriter<DataFile> iceberg =
                ManifestFiles.write(
                        formatVersion,
                        spec,
                        io.newOutputFile(dir + "iceberg.avro"),
                        7L,
                        UNCOMPRESSED);
        try (iceberg) {
            files.forEach(iceberg::add);
        }
        ManifestFile expected = iceberg.toManifestFile();
        TarnManifestWriter tarn = new TarnManifestWriter(formatVersion, spec);
        // Twice through one writer: nothing of a file stays in the next.
        tarn.write(io.newOutputFile(dir + "first.avro"), 7L, files);
        ManifestFile actual = tarn.write(io.newOutputFile(dir + "tarn.avro"), 7L, files);

        assertThat(withoutSync(dir + "tarn.avro")).isEqualTo(withoutSync(dir + "iceberg.avro"));
        assertThat(withoutSync(dir + "first.avro")).isEqualTo(withoutSync(dir + "iceberg.avro"));
        assertThat(actual.path()).isEqualTo(dir + "tarn.avro");
        assertThat(actual)
                .usingRecursiveComparison()
                .ignoringFields("manifestPath", "fromProjectionPos")
                .isEqualTo(expected);
        assertThat(entries(actual, spec)).hasSize(3).isEqualTo(entries(expected, spec));
    }

    @ParameterizedTest
    @CsvSource({"2, false", "2, true", "3, false", "3, true"})
    void rewritesExistingAndDeletedFilesAsIcebergsWriter(int formatVersion, boolean partitioned)
            throws IOException {
        String dir = "/r/" + formatVersion + "-" + partitioned + "/";
        PartitionSpec spec = spec(partitioned);
        List<DataFile> files = files(spec);
        // Files 0 and 1 kept from the snapshots that added them (4 and 5), file 2 deleted by
        // snapshot 9, which writes the manifest.
        List<TarnManifestEntries.Live> existing =
                List.of(
                        new TarnManifestEntries.Live(files.get(0), 4L, 4L, 4L),
                        new TarnManifestEntries.Live(files.get(1), 5L, 3L, 5L));
        List<TarnManifestEntries.Live> deleted =
                List.of(new TarnManifestEntries.Live(files.get(2), 6L, 6L, 6L));
        ManifestWriter<DataFile> iceberg =
                ManifestFiles.write(
                        formatVersion,
                        spec,
                        io.newOutputFile(dir + "iceberg.avro"),
                        9L,
                        UNCOMPRESSED);
        try (iceberg) {
            for (TarnManifestEntries.Live e : existing) {
                iceberg.existing(e.file(), e.snapshotId(), e.dataSequence(), e.fileSequence());
            }
            for (TarnManifestEntries.Live e : deleted) {
                iceberg.delete(e.file(), e.dataSequence(), e.fileSequence());
            }
        }
        ManifestFile expected = iceberg.toManifestFile();
        TarnManifestWriter tarn = new TarnManifestWriter(formatVersion, spec);
        // After an append through the same writer: nothing of a file stays in the next.
        tarn.write(io.newOutputFile(dir + "appended.avro"), 8L, files);
        ManifestFile actual =
                tarn.rewrite(io.newOutputFile(dir + "tarn.avro"), 9L, existing, deleted);

        assertThat(withoutSync(dir + "tarn.avro")).isEqualTo(withoutSync(dir + "iceberg.avro"));
        assertThat(actual)
                .usingRecursiveComparison()
                .ignoringFields("manifestPath", "fromProjectionPos")
                .isEqualTo(expected);
        assertThat(actual.existingFilesCount()).isEqualTo(2);
        assertThat(actual.deletedFilesCount()).isEqualTo(1);
        assertThat(actual.minSequenceNumber()).isEqualTo(3L);
        assertThat(entries(actual, spec)).hasSize(2).isEqualTo(entries(expected, spec));
    }

    @Test
    void writesAManifestAsIcebergsWriterRightAfterALargeRewrite() throws IOException {
        PartitionSpec spec = spec(true);
        TarnManifestWriter tarn = new TarnManifestWriter(2, spec);
        List<TarnManifestEntries.Live> many = new ArrayList<>();
        for (DataFile f : files(spec, 20_000)) {
            many.add(new TarnManifestEntries.Live(f, 4L, 4L, 4L));
        }
        ManifestFile large = tarn.rewrite(io.newOutputFile("/l/large.avro"), 9L, many, List.of());
        assertThat(large.existingFilesCount()).isEqualTo(20_000);
        assertThat(large.length()).isGreaterThan(100_000L);
        assertThat(entries(large, spec)).hasSize(20_000);

        List<DataFile> few = files(spec);
        ManifestWriter<DataFile> iceberg =
                ManifestFiles.write(2, spec, io.newOutputFile("/l/iceberg.avro"), 7L, UNCOMPRESSED);
        try (iceberg) {
            few.forEach(iceberg::add);
        }
        tarn.write(io.newOutputFile("/l/tarn.avro"), 7L, few);
        assertThat(withoutSync("/l/tarn.avro")).isEqualTo(withoutSync("/l/iceberg.avro"));
    }
}
