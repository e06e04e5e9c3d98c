package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.canonical;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.parquet.ParquetDataWriter.WritePath;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The flat path writes the file the record path writes: the same bytes (schema, encodings, pages,
 * row groups, statistics, page indexes) for every atomic type, nulls included, and the same size
 * estimates while writing.
 */
class FlatRowWriterTest {

    @TempDir java.nio.file.Path dir;

    /** Every atomic type: decimals of each encoding, timestamps of each, strings and bytes. */
    private static final RowType FLAT = ParquetRoundTripTest.FLAT;

    private static List<RowData> rows() {
        List<RowData> rows = ParquetRoundTripTest.randomRows(FLAT, 6000, 11);
        rows.add(ParquetRoundTripTest.nullRow(FLAT));
        rows.add(ParquetRoundTripTest.extremeRow(true));
        rows.add(ParquetRoundTripTest.extremeRow(false));
        return rows;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(WriterVersion.class)
    void writesTheRecordPathsBytes(WriterVersion version) throws Exception {
        List<RowData> rows = rows();
        ParquetWriteOptions options = ParquetRoundTripTest.smallGroups();
        Path flat = path(dir, "flat.parquet");
        Path record = path(dir, "record.parquet");
        List<Long> flatSizes = new ArrayList<>();
        List<Long> recordSizes = new ArrayList<>();
        DataFileStats flatStats = write(flat, options, version, WritePath.FLAT, rows, flatSizes);
        DataFileStats recordStats =
                write(record, options, version, WritePath.RECORD, rows, recordSizes);

        assertThat(bytes(flat)).isEqualTo(bytes(record));
        assertThat(flatStats).usingRecursiveComparison().isEqualTo(recordStats);
        assertThat(flatSizes).isEqualTo(recordSizes);
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, flat, length(flat), FLAT, FLAT, null)) {
            assertThat(reader.rowGroupsTotal()).isGreaterThan(1);
        }
        for (boolean vectorized : new boolean[] {true, false}) {
            assertThat(read(flat, FLAT, FLAT, null, vectorized))
                    .containsExactlyElementsOf(canonical(rows, FLAT));
        }
    }

    @Test
    void anEmptyFileIsTheRecordPathsToo() throws Exception {
        ParquetWriteOptions options = ParquetWriteOptions.defaults();
        Path flat = path(dir, "flat.parquet");
        Path record = path(dir, "record.parquet");
        List<Long> sizes = new ArrayList<>();
        DataFileStats stats =
                write(flat, options, WriterVersion.PARQUET_1_0, WritePath.FLAT, List.of(), sizes);
        write(record, options, WriterVersion.PARQUET_1_0, WritePath.RECORD, List.of(), sizes);

        assertThat(bytes(flat)).isEqualTo(bytes(record));
        assertThat(stats.rowCount()).isZero();
        assertThat(read(flat, FLAT, FLAT, null, true)).isEmpty();
    }

    @Test
    void atomicColumnsTakeTheFlatPathAndNestedOnesTheRecordPath() throws Exception {
        RowType nested =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())))
                                .getLogicalType();
        try (ParquetDataWriter flat =
                        ParquetDataWriter.create(
                                IO, path(dir, "a.parquet"), FLAT, ParquetWriteOptions.defaults());
                ParquetDataWriter record =
                        ParquetDataWriter.create(
                                IO,
                                path(dir, "b.parquet"),
                                nested,
                                ParquetWriteOptions.defaults())) {
            assertThat(flat.writePath()).isEqualTo(WritePath.FLAT);
            assertThat(record.writePath()).isEqualTo(WritePath.RECORD);
        }
        assertThatThrownBy(
                        () ->
                                ParquetDataWriter.create(
                                        IO,
                                        path(dir, "c.parquet"),
                                        nested,
                                        ParquetWriteOptions.defaults(),
                                        WriterVersion.PARQUET_1_0,
                                        WritePath.FLAT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot write rows of type ROW<`id` BIGINT, `tags` ARRAY<INT>> column by"
                                + " column: a column is nested");
        assertThat(Files.exists(java.nio.file.Path.of(path(dir, "c.parquet").toUri()))).isFalse();
    }

    @Test
    void aFailedWriteDeletesTheFile() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD("name", DataTypes.STRING()))
                                .getLogicalType();
        Path file = path(dir, "failed.parquet");
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, type, ParquetWriteOptions.defaults())) {
            writer.write(GenericRowData.of(1L, StringData.fromString("one")));
            // A string where the type says BIGINT: the column writer cannot take it.
            assertThatThrownBy(() -> writer.write(GenericRowData.of("two", null)))
                    .isInstanceOf(IOException.class)
                    .hasMessage("Cannot write row 1 to " + file + ", the file was deleted");
        }
        assertThat(Files.exists(java.nio.file.Path.of(file.toUri()))).isFalse();
    }

    private static DataFileStats write(
            Path file,
            ParquetWriteOptions options,
            WriterVersion version,
            WritePath writePath,
            List<RowData> rows,
            List<Long> sizes)
            throws IOException {
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, FLAT, options, version, writePath)) {
            for (int i = 0; i < rows.size(); i++) {
                writer.write(rows.get(i));
                if (i % 100 == 0) {
                    sizes.add(writer.estimatedLength());
                }
            }
            return writer.finish();
        }
    }

    private static byte[] bytes(Path file) throws IOException {
        return Files.readAllBytes(java.nio.file.Path.of(file.toUri()));
    }
}
