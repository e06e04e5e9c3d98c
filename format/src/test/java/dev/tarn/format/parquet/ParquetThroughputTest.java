package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures write and scan throughput on the benchmark's 8-column shape and prints rows/s. It
 * asserts only correctness (machines differ too much for a threshold); the numbers are for humans.
 */
class ParquetThroughputTest {

    @TempDir java.nio.file.Path dir;

    private static final int ROWS = 1_000_000;

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("qty", DataTypes.INT()),
                                    DataTypes.FIELD("category", DataTypes.STRING()),
                                    DataTypes.FIELD("user", DataTypes.STRING()),
                                    DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("shop", DataTypes.INT()),
                                    DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("paid", DataTypes.BOOLEAN()))
                            .getLogicalType();

    /** Rows written and scanned untimed first, so the JIT has compiled the hot paths. */
    private static final int WARM_UP_ROWS = 100_000;

    @Test
    void writesAndScansAMillionRows() throws Exception {
        Path warmUp = path(dir, "warm-up.parquet");
        write(warmUp, WARM_UP_ROWS);
        for (int i = 0; i < 3; i++) {
            scan(warmUp, WARM_UP_ROWS);
        }

        Path file = path(dir, "bench.parquet");
        long[] write = write(file, ROWS);
        long[] scan = scan(file, ROWS);
        System.out.printf(
                "Parquet throughput, %d rows x 8 columns, %d bytes, after a %d-row warm-up;"
                        + " rows/s per wall (per CPU) second: write %s, scan %s%n",
                ROWS, length(file), WARM_UP_ROWS, rate(write), rate(scan));
    }

    private static String rate(long[] nanos) {
        return String.format("%.0f (%.0f)", ROWS / (nanos[0] / 1e9), ROWS / (nanos[1] / 1e9));
    }

    /** Writes {@code rows} rows of the benchmark shape; returns wall and CPU nanoseconds. */
    private static long[] write(Path file, int rows) throws Exception {
        StringData[] categories = new StringData[100];
        for (int i = 0; i < categories.length; i++) {
            categories[i] = StringData.fromString("category-" + i);
        }
        StringData[] users = new StringData[50_000];
        for (int i = 0; i < users.length; i++) {
            users[i] = StringData.fromString("user-" + (i * 7919L % 1_000_003));
        }
        GenericRowData row = new GenericRowData(TYPE.getFieldCount());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, TYPE, ParquetWriteOptions.defaults())) {
            for (int i = 0; i < rows; i++) {
                row.setField(0, (long) i);
                row.setField(1, i % 17);
                row.setField(2, categories[i % categories.length]);
                row.setField(3, users[i % users.length]);
                row.setField(4, i % 10 == 0 ? null : i * 0.01);
                row.setField(5, i % 1000);
                row.setField(6, TimestampData.fromEpochMillis(1_700_000_000_000L + i * 10L));
                row.setField(7, i % 3 == 0);
                writer.write(row);
            }
            assertThat(writer.finish().rowCount()).isEqualTo(rows);
        }
        return new long[] {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpuStart};
    }

    /** Reads every column of every row as a query would; returns wall and CPU nanoseconds. */
    private static long[] scan(Path file, int expectedRows) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long rows = 0;
        long checksum = 0;
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length(file), TYPE, TYPE, null)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows++;
                checksum += row.getLong(0) + row.getInt(1) + size(row.getString(2));
                checksum += size(row.getString(3)) + (row.isNullAt(4) ? 0 : 1);
                checksum += row.getInt(5) + row.getTimestamp(6, 3).getMillisecond();
                checksum += row.getBoolean(7) ? 1 : 0;
            }
        }
        long[] elapsed = {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpuStart};
        assertThat(rows).isEqualTo(expectedRows);
        assertThat(checksum).isNotZero();
        return elapsed;
    }

    private static int size(StringData s) {
        return ((BinaryStringData) s).getSizeInBytes();
    }
}
