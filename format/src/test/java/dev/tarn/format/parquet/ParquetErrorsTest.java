package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Missing, truncated and corrupt files fail clearly; failed or aborted writes leave nothing. */
class ParquetErrorsTest {

    @TempDir java.nio.file.Path dir;

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("name", DataTypes.STRING()))
                            .getLogicalType();

    private Path validFile() throws IOException {
        Path file = path(dir, "valid.parquet");
        write(
                file,
                TYPE,
                ParquetRoundTripTest.smallGroups(),
                ParquetRoundTripTest.randomRows(TYPE, 20_000, 5));
        return file;
    }

    private Path copyOf(Path source, String name, byte[] bytes) throws IOException {
        Path copy = path(dir, name);
        Files.write(java.nio.file.Path.of(copy.toUri()), bytes);
        return copy;
    }

    private static byte[] bytesOf(Path file) throws IOException {
        return Files.readAllBytes(java.nio.file.Path.of(file.toUri()));
    }

    /** Opens {@code file} and reads it to the end. */
    private static void readAll(Path file, long length) throws IOException {
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length, TYPE, TYPE, null)) {
            while (reader.next() != null) {
                // reading is the point
            }
        }
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = path(dir, "missing.parquet");

        assertThatThrownBy(() -> readAll(missing, 100))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void aTruncatedFileIsNotAValidParquetFile() throws Exception {
        byte[] bytes = bytesOf(validFile());
        Path truncated = copyOf(null, "truncated.parquet", Arrays.copyOf(bytes, bytes.length / 2));

        assertThatThrownBy(() -> readAll(truncated, bytes.length / 2))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read " + truncated)
                .hasMessageContaining("not a valid Parquet file");
    }

    @Test
    void aLengthBeyondTheFileIsNotAValidParquetFile() throws Exception {
        Path file = validFile();
        long length = bytesOf(file).length;

        assertThatThrownBy(() -> readAll(file, length + 10))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read " + file)
                .hasMessageContaining("not a valid Parquet file");
    }

    @Test
    void garbageIsNotAValidParquetFile() throws Exception {
        byte[] garbage = new byte[5000];
        Arrays.fill(garbage, (byte) 0x5A);
        Path file = copyOf(null, "garbage.parquet", garbage);

        assertThatThrownBy(() -> readAll(file, garbage.length))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read " + file)
                .hasMessageContaining("not a valid Parquet file");
    }

    @Test
    void corruptPagesAreNotAValidParquetFile() throws Exception {
        byte[] bytes = bytesOf(validFile());
        for (int i = 4; i < bytes.length / 2; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Path file = copyOf(null, "corrupt.parquet", bytes);

        assertThatThrownBy(() -> readAll(file, bytes.length))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read " + file)
                .hasMessageContaining("not a valid Parquet file");
    }

    @Test
    void creatingAnExistingFileFailsAndKeepsIt() throws Exception {
        Path file = validFile();
        byte[] before = bytesOf(file);

        assertThatThrownBy(
                        () ->
                                ParquetDataWriter.create(
                                        IO, file, TYPE, ParquetDataWriter.Options.defaults()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("already exists");
        assertThat(bytesOf(file)).isEqualTo(before);
    }

    @Test
    void abortAndCloseBeforeFinishDeleteTheFile() throws Exception {
        Path aborted = path(dir, "aborted.parquet");
        ParquetDataWriter writer =
                ParquetDataWriter.create(IO, aborted, TYPE, ParquetDataWriter.Options.defaults());
        writer.write(GenericRowData.of(1L, StringData.fromString("a")));
        assertThat(IO.exists(aborted)).isTrue();
        writer.abort();
        assertThat(IO.exists(aborted)).isFalse();
        assertThatThrownBy(() -> writer.write(GenericRowData.of(2L, null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Parquet writer for " + aborted + " is aborted");

        Path closed = path(dir, "closed.parquet");
        try (ParquetDataWriter unfinished =
                ParquetDataWriter.create(IO, closed, TYPE, ParquetDataWriter.Options.defaults())) {
            unfinished.write(GenericRowData.of(1L, null));
        }
        assertThat(IO.exists(closed)).isFalse();

        Path finished = path(dir, "finished.parquet");
        try (ParquetDataWriter done =
                ParquetDataWriter.create(
                        IO, finished, TYPE, ParquetDataWriter.Options.defaults())) {
            done.write(GenericRowData.of(1L, null));
            assertThat(done.rowCount()).isEqualTo(1);
            assertThat(done.estimatedLength()).isPositive();
            done.finish();
        }
        assertThat(IO.exists(finished)).isTrue();
    }

    @Test
    void aNullKeyInAMapOfNotNullKeysFailsTheWriteAndDeletesTheFile() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD(
                                                "m",
                                                DataTypes.MAP(
                                                        DataTypes.INT().notNull(),
                                                        DataTypes.INT())))
                                .getLogicalType();
        Map<Object, Object> map = new HashMap<>();
        map.put(null, 1);
        Path file = path(dir, "nullkey.parquet");
        ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, type, ParquetDataWriter.Options.defaults());

        assertThatThrownBy(() -> writer.write(GenericRowData.of(new GenericMapData(map))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot write row 0 to " + file)
                .hasRootCauseMessage(
                        "Cannot write map column m: it holds a null key, but its key type is NOT NULL");
        assertThat(IO.exists(file)).isFalse();
    }

    @Test
    void estimatedLengthGrowsWithTheData() throws Exception {
        Path file = path(dir, "growing.parquet");
        List<RowData> rows = ParquetRoundTripTest.randomRows(TYPE, 50_000, 6);
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, TYPE, ParquetRoundTripTest.smallGroups())) {
            long first = writer.estimatedLength();
            for (RowData row : rows) {
                writer.write(row);
            }
            long last = writer.estimatedLength();
            DataFileStats stats = writer.finish();
            assertThat(last).isGreaterThan(first);
            assertThat(stats.fileSize()).isBetween(last / 2, last * 2);
        }
    }
}
