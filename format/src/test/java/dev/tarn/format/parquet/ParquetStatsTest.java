package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Column statistics taken from the footer: exact bounds, null counts, and what stays unknown. */
class ParquetStatsTest {

    @TempDir java.nio.file.Path dir;

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("score", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
                                    DataTypes.FIELD("tiny", DataTypes.TINYINT()),
                                    DataTypes.FIELD("day", DataTypes.DATE()),
                                    DataTypes.FIELD("price", DataTypes.DECIMAL(9, 2)),
                                    DataTypes.FIELD("big", DataTypes.DECIMAL(38, 10)),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("ltz", DataTypes.TIMESTAMP_LTZ(6)),
                                    DataTypes.FIELD("nanos", DataTypes.TIMESTAMP(9)),
                                    DataTypes.FIELD("text", DataTypes.STRING()),
                                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())),
                                    DataTypes.FIELD("bin", DataTypes.BYTES()),
                                    DataTypes.FIELD("nothing", DataTypes.INT()))
                            .getLogicalType();

    /** Rows with ids 1..1000; every seventh row is null in all columns but id. */
    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            if (i % 7 == 0) {
                GenericRowData row = new GenericRowData(TYPE.getFieldCount());
                row.setField(0, (long) i);
                rows.add(row);
                continue;
            }
            rows.add(
                    GenericRowData.of(
                            (long) i,
                            StringData.fromString(String.format("name-%04d", i)),
                            i * 0.5 - 100,
                            i % 2 == 0,
                            (byte) (i % 100 - 50),
                            18_000 + i,
                            DecimalData.fromUnscaledLong(i * 101L, 9, 2),
                            DecimalData.fromBigDecimal(
                                    new BigDecimal("-1234567890123456789.5")
                                            .add(BigDecimal.valueOf(i)),
                                    38,
                                    10),
                            TimestampData.fromEpochMillis(1_700_000_000_000L + i),
                            TimestampData.fromEpochMillis(1_700_000_000_000L + i, 7_000),
                            TimestampData.fromEpochMillis(i, 123),
                            StringData.fromString("x".repeat(60 + i % 10)),
                            new GenericArrayData(new int[] {i}),
                            new byte[] {(byte) (i % 3), 1},
                            null));
        }
        return rows;
    }

    @Test
    void boundsAndNullCountsComeFromTheFooterOfEveryRowGroup() throws Exception {
        Path file = path(dir, "stats.parquet");
        DataFileStats result =
                write(
                        file,
                        TYPE,
                        new ParquetDataWriter.Options(
                                FileCompression.ZSTD, 3, 8 * 1024, 1024, true),
                        rows());
        assertThat(result.rowCount()).isEqualTo(1000);
        assertThat(result.fileSize()).isEqualTo(length(file));

        ColumnStats stats = result.stats();
        long nulls = 1000 / 7;
        assertThat(stats.columnCount()).isEqualTo(TYPE.getFieldCount());
        assertBounds(stats, 0, 1L, 1000L, 0);
        assertBounds(
                stats,
                1,
                StringData.fromString("name-0001"),
                StringData.fromString("name-1000"),
                nulls);
        assertBounds(stats, 2, -99.5, 400.0, nulls);
        assertBounds(stats, 3, false, true, nulls);
        assertBounds(stats, 4, (byte) -50, (byte) 49, nulls);
        assertBounds(stats, 5, 18_001, 19_000, nulls);
        assertBounds(
                stats,
                6,
                DecimalData.fromUnscaledLong(101, 9, 2),
                DecimalData.fromUnscaledLong(101_000, 9, 2),
                nulls);
        assertBounds(
                stats,
                7,
                DecimalData.fromBigDecimal(new BigDecimal("-1234567890123456788.5"), 38, 10),
                DecimalData.fromBigDecimal(new BigDecimal("-1234567890123455789.5"), 38, 10),
                nulls);
        assertBounds(
                stats,
                8,
                TimestampData.fromEpochMillis(1_700_000_000_001L),
                TimestampData.fromEpochMillis(1_700_000_001_000L),
                nulls);
        assertBounds(
                stats,
                9,
                TimestampData.fromEpochMillis(1_700_000_000_001L, 7_000),
                TimestampData.fromEpochMillis(1_700_000_001_000L, 7_000),
                nulls);
        // INT96 has no defined order in Parquet, strings over 64 bytes are not kept.
        assertBounds(stats, 10, null, null, nulls);
        assertBounds(stats, 11, null, null, nulls);
        // Nested columns: nothing known.
        assertBounds(stats, 12, null, null, -1);
        assertThat(stats.min(13)).isEqualTo(new byte[] {0, 1});
        assertThat(stats.max(13)).isEqualTo(new byte[] {2, 1});
        assertThat(stats.nullCount(13)).isEqualTo(nulls);
        assertBounds(stats, 14, null, null, 1000);
    }

    @Test
    void anEmptyFileHasUnknownBounds() throws Exception {
        DataFileStats result =
                write(
                        path(dir, "empty.parquet"),
                        TYPE,
                        ParquetDataWriter.Options.defaults(),
                        List.of());

        assertThat(result.rowCount()).isZero();
        assertThat(result.stats().min(0)).isNull();
        assertThat(result.stats().max(0)).isNull();
    }

    @Test
    void nanMakesFloatingPointBoundsUnknown() throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("d", DataTypes.DOUBLE()),
                                        DataTypes.FIELD("f", DataTypes.FLOAT()))
                                .getLogicalType();
        DataFileStats result =
                write(
                        path(dir, "nan.parquet"),
                        type,
                        ParquetDataWriter.Options.defaults(),
                        List.of(
                                GenericRowData.of(1.0, 1.0f),
                                GenericRowData.of(Double.NaN, Float.NaN),
                                GenericRowData.of(-0.0, 2.0f)));

        for (int column = 0; column < 2; column++) {
            Object min = result.stats().min(column);
            Object max = result.stats().max(column);
            assertThat(min == null || ((Number) min).doubleValue() <= -0.0).isTrue();
            assertThat(max).isNull();
        }
    }

    private static void assertBounds(
            ColumnStats stats, int column, Object min, Object max, long nulls) {
        assertThat(stats.min(column)).as("min of column %s", column).isEqualTo(min);
        assertThat(stats.max(column)).as("max of column %s", column).isEqualTo(max);
        assertThat(stats.nullCount(column)).as("nulls of column %s", column).isEqualTo(nulls);
    }
}
