package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.canonical;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import dev.tarn.format.parquet.ParquetDataWriter.WritePath;
import dev.tarn.format.parquet.codec.TarnCodecFactory;
import dev.tarn.format.parquet.read.ParquetInputFile;
import dev.tarn.format.schema.TableConfig.FileCompression;
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
import org.apache.parquet.TarnParquetReadOptions;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flat path writes what the record path writes: the same rows back, the same file statistics
 * and row-group layout rules, for every atomic type, nulls included; dictionaries are used while
 * they pay, and a file whose column outgrew its dictionary stops trying.
 */
class FlatRowWriterTest {

    /**
     * The values a dictionary column writer samples before it judges a column near-unique (its
     * {@code SAMPLE}, private to the write package).
     */
    private static final int DICTIONARY_SAMPLE = 4096;

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

    @Test
    void writesWhatTheRecordPathWrites() throws Exception {
        List<RowData> rows = rows();
        ParquetDataWriter.Options options = ParquetRoundTripTest.smallGroups();
        Path flat = path(dir, "flat.parquet");
        Path record = path(dir, "record.parquet");
        List<Long> flatSizes = new ArrayList<>();
        DataFileStats flatStats = write(flat, FLAT, options, WritePath.FLAT, rows, flatSizes);
        DataFileStats recordStats =
                write(record, FLAT, options, WritePath.RECORD, rows, new ArrayList<>());

        assertThat(flatStats)
                .usingRecursiveComparison()
                .ignoringFields("fileSize")
                .isEqualTo(recordStats);
        assertThat(footer(flat).getBlocks()).hasSizeGreaterThan(1);
        // The running size estimate grows with the file and ends near its size.
        assertThat(flatSizes).isSorted();
        assertThat(flatSizes.get(flatSizes.size() - 1))
                .isBetween(flatStats.fileSize() / 2, flatStats.fileSize() * 2);
        for (boolean vectorized : new boolean[] {true, false}) {
            assertThat(read(flat, FLAT, FLAT, null, vectorized))
                    .containsExactlyElementsOf(canonical(rows, FLAT));
        }
    }

    @Test
    void anEmptyFileHasNoRowGroup() throws Exception {
        Path flat = path(dir, "flat.parquet");
        DataFileStats stats =
                write(
                        flat,
                        FLAT,
                        ParquetDataWriter.Options.defaults(),
                        WritePath.FLAT,
                        List.of(),
                        new ArrayList<>());

        assertThat(stats.rowCount()).isZero();
        assertThat(footer(flat).getBlocks()).isEmpty();
        assertThat(read(flat, FLAT, FLAT, null, true)).isEmpty();
    }

    @Test
    void dictionariesAreKeptWhileTheyPayAndDroppedForTheFileOnceOutgrown() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("few", DataTypes.STRING()),
                                        DataTypes.FIELD("unique", DataTypes.STRING()),
                                        DataTypes.FIELD("late", DataTypes.BIGINT()),
                                        DataTypes.FIELD("ratio", DataTypes.DOUBLE()))
                                .getLogicalType();
        List<RowData> rows = new ArrayList<>();
        for (long i = 0; i < 40_000; i++) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString("city-" + i % 7),
                            StringData.fromString("user-" + i * 7919),
                            // Ten values for the first 1000 rows, then a new value every row.
                            i < 1000 ? i % 10 : i * 31,
                            i % 5 == 0 ? null : (i % 3) * 0.5));
        }
        Path file = path(dir, "dictionaries.parquet");
        // 4 KiB pages and dictionaries (512 longs), 48 KiB row groups.
        ParquetDataWriter.Options options =
                new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 48 * 1024, 4 * 1024, true);
        write(file, type, options, WritePath.FLAT, rows, new ArrayList<>());

        List<BlockMetaData> groups = footer(file).getBlocks();
        assertThat(groups).hasSizeGreaterThan(2);
        assertThat(groups.get(0).getRowCount()).isGreaterThan(2000);
        for (BlockMetaData group : groups) {
            assertThat(dictionaryEncoded(group, 0)).as("few").isTrue();
            assertThat(dictionaryEncoded(group, 1)).as("unique").isFalse();
            assertThat(dictionaryEncoded(group, 3)).as("ratio, with nulls").isTrue();
        }
        // "late" starts with a dictionary, outgrows it in the first row group (whose early pages
        // keep it), and the file's later row groups do not try again.
        ColumnChunkMetaData first = groups.get(0).getColumns().get(2);
        assertThat(first.getEncodings()).contains(Encoding.PLAIN_DICTIONARY, Encoding.PLAIN);
        for (BlockMetaData group : groups.subList(1, groups.size())) {
            assertThat(dictionaryEncoded(group, 2)).as("late").isFalse();
        }
        for (boolean vectorized : new boolean[] {true, false}) {
            assertThat(read(file, type, type, null, vectorized))
                    .containsExactlyElementsOf(canonical(rows, type));
        }
    }

    @Test
    void aColumnWhoseFirstValuesAreNearlyAllDistinctGivesUpItsDictionaryAtOnce() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("distinct_first", DataTypes.BIGINT()),
                                        DataTypes.FIELD("repeating", DataTypes.BIGINT()))
                                .getLogicalType();
        java.util.Random random = new java.util.Random(5);
        List<RowData> rows = new ArrayList<>();
        for (long i = 0; i < 20_000; i++) {
            rows.add(
                    GenericRowData.of(
                            // Distinct for the first sample, then a few thousand values repeating.
                            i < DICTIONARY_SAMPLE ? i * 31 : (i % 3000) * 31,
                            // 3,000 values at random: many repeats within the first sample.
                            (long) random.nextInt(3000)));
        }
        Path file = path(dir, "near-unique.parquet");
        // 1 MiB pages: the dictionary limit is far, and the whole file is one page per column,
        // whose end-of-page test would keep both dictionaries.
        ParquetDataWriter.Options options =
                new ParquetDataWriter.Options(
                        FileCompression.ZSTD, 3, 128 * 1024 * 1024, 1024 * 1024, true);
        write(file, type, options, WritePath.FLAT, rows, new ArrayList<>());

        BlockMetaData group = footer(file).getBlocks().get(0);
        assertThat(dictionaryEncoded(group, 0)).as("distinct first").isFalse();
        assertThat(dictionaryEncoded(group, 1)).as("repeating").isTrue();
        assertThat(read(file, type, type, null, true))
                .containsExactlyElementsOf(canonical(rows, type));
    }

    @Test
    void pagesWithNullsKeepTheirMinAndMax() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("n", DataTypes.INT()),
                                        DataTypes.FIELD("f", DataTypes.FLOAT()),
                                        DataTypes.FIELD("b", DataTypes.BOOLEAN()),
                                        DataTypes.FIELD("s", DataTypes.STRING()))
                                .getLogicalType();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            boolean nul = i % 4 == 1;
            rows.add(
                    GenericRowData.of(
                            nul ? null : i - 500,
                            nul ? null : (i == 7 ? Float.NaN : i == 8 ? -0.0f : (float) i),
                            nul ? null : i % 3 == 0,
                            nul ? null : StringData.fromString(i % 2 == 0 ? "\u00e9" + i : "z")));
        }
        rows.add(GenericRowData.of(null, null, null, null));
        Path file = path(dir, "nulls.parquet");
        DataFileStats stats =
                write(
                        file,
                        type,
                        ParquetDataWriter.Options.defaults(),
                        WritePath.FLAT,
                        rows,
                        new ArrayList<>());
        Path record = path(dir, "nulls-record.parquet");
        DataFileStats recordStats =
                write(
                        record,
                        type,
                        ParquetDataWriter.Options.defaults(),
                        WritePath.RECORD,
                        rows,
                        new ArrayList<>());

        assertThat(stats)
                .usingRecursiveComparison()
                .ignoringFields("fileSize")
                .isEqualTo(recordStats);
        assertThat(read(file, type, type, null, true))
                .containsExactlyElementsOf(canonical(rows, type));
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
                                IO,
                                path(dir, "a.parquet"),
                                FLAT,
                                ParquetDataWriter.Options.defaults());
                ParquetDataWriter record =
                        ParquetDataWriter.create(
                                IO,
                                path(dir, "b.parquet"),
                                nested,
                                ParquetDataWriter.Options.defaults())) {
            assertThat(flat.writePath()).isEqualTo(WritePath.FLAT);
            assertThat(record.writePath()).isEqualTo(WritePath.RECORD);
        }
        assertThatThrownBy(
                        () ->
                                ParquetDataWriter.create(
                                        IO,
                                        path(dir, "c.parquet"),
                                        nested,
                                        ParquetDataWriter.Options.defaults(),
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
                ParquetDataWriter.create(IO, file, type, ParquetDataWriter.Options.defaults())) {
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
            RowType type,
            ParquetDataWriter.Options options,
            WritePath writePath,
            List<RowData> rows,
            List<Long> sizes)
            throws IOException {
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(
                        IO, file, type, options, WriterVersion.PARQUET_1_0, writePath)) {
            for (int i = 0; i < rows.size(); i++) {
                writer.write(rows.get(i));
                if (i % 100 == 0) {
                    sizes.add(writer.estimatedLength());
                }
            }
            return writer.finish();
        }
    }

    private static boolean dictionaryEncoded(BlockMetaData group, int column) {
        return group.getColumns().get(column).getEncodings().contains(Encoding.PLAIN_DICTIONARY);
    }

    private static ParquetMetadata footer(Path file) throws IOException {
        ParquetInputFile input = new ParquetInputFile(IO, file, length(file));
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        input, TarnParquetReadOptions.create(new TarnCodecFactory()))) {
            return reader.getFooter();
        }
    }
}
