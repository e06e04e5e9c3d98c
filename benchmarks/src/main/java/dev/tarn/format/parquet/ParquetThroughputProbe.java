package dev.tarn.format.parquet;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Write and scan throughput of one Parquet data file on one thread, through the format's public
 * writer and reader, on the benchmark's 8-column shape (BIGINT, INT, two STRINGs of 100 and 50,000
 * distinct values, DOUBLE with nulls, INT, TIMESTAMP(3), BOOLEAN). Prints rows/s per wall and per
 * CPU second of each round and their medians. Every scan is checked: it must return every row
 * written, with the values written (a checksum of all columns).
 */
public final class ParquetThroughputProbe {

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

    private static final StringData[] CATEGORIES = strings(100, i -> "category-" + i);

    private static final StringData[] USERS =
            strings(50_000, i -> "user-" + (i * 7919L % 1_000_003));

    private static final FileIO IO = FileIO.flinkFileSystems();

    private ParquetThroughputProbe() {}

    /** Writes and scans a file of {@code rows} rows {@code runs} times, after a warm-up. */
    public static void run(int rows, int runs, PrintStream out) throws IOException {
        java.nio.file.Path dir = Files.createTempDirectory("parquet-throughput-probe");
        try {
            int warmUpRows = Math.min(rows, WARM_UP_ROWS);
            Path warmUp = path(dir, "warm-up.parquet");
            write(warmUp, warmUpRows);
            for (int i = 0; i < 3; i++) {
                scan(warmUp, warmUpRows);
            }
            IO.delete(warmUp, false);

            List<Double> writeRates = new ArrayList<>();
            List<Double> scanRates = new ArrayList<>();
            for (int round = 0; round < runs; round++) {
                Path file = path(dir, "round-" + round + ".parquet");
                long[] write = write(file, rows);
                long bytes = Files.size(java.nio.file.Path.of(file.toUri()));
                long[] scan = scan(file, rows);
                IO.delete(file, false);
                writeRates.add(rows / (write[0] / 1e9));
                scanRates.add(rows / (scan[0] / 1e9));
                out.printf(
                        "round %d: %,d rows x 8 columns, %,d bytes; rows/s per wall (per CPU)"
                                + " second: write %s, scan %s%n",
                        round, rows, bytes, rate(rows, write), rate(rows, scan));
            }
            out.printf(
                    "Parquet throughput, medians over %d rounds of %,d rows after a %,d-row"
                            + " warm-up, rows/s: write %.0f, scan %.0f%n",
                    runs,
                    rows,
                    warmUpRows,
                    ParquetWriteCpuProbe.median(writeRates),
                    ParquetWriteCpuProbe.median(scanRates));
        } finally {
            IO.delete(new Path(dir.toUri()), true);
        }
    }

    private static String rate(int rows, long[] nanos) {
        return String.format("%.0f (%.0f)", rows / (nanos[0] / 1e9), rows / (nanos[1] / 1e9));
    }

    /** Writes {@code rows} rows of the benchmark shape; returns wall and CPU nanoseconds. */
    private static long[] write(Path file, int rows) throws IOException {
        GenericRowData row = new GenericRowData(TYPE.getFieldCount());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long written;
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(IO, file, TYPE, ParquetDataWriter.Options.defaults())) {
            for (int i = 0; i < rows; i++) {
                fill(row, i);
                writer.write(row);
            }
            written = writer.finish().rowCount();
        }
        long[] elapsed = {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpuStart};
        check("rows in the footer of " + file, rows, written);
        return elapsed;
    }

    /** Row {@code i} of the benchmark shape, into {@code row}. */
    private static void fill(GenericRowData row, int i) {
        row.setField(0, (long) i);
        row.setField(1, i % 17);
        row.setField(2, CATEGORIES[i % CATEGORIES.length]);
        row.setField(3, USERS[i % USERS.length]);
        row.setField(4, i % 10 == 0 ? null : i * 0.01);
        row.setField(5, i % 1000);
        row.setField(6, TimestampData.fromEpochMillis(1_700_000_000_000L + i * 10L));
        row.setField(7, i % 3 == 0);
    }

    /** Reads every column of every row as a query would; returns wall and CPU nanoseconds. */
    private static long[] scan(Path file, int expectedRows) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long rows = 0;
        long checksum = 0;
        long length = Files.size(java.nio.file.Path.of(file.toUri()));
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length, TYPE, TYPE, null)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows++;
                checksum += checksum(row);
            }
        }
        long[] elapsed = {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpuStart};
        check("rows scanned from " + file, expectedRows, rows);
        GenericRowData expected = new GenericRowData(TYPE.getFieldCount());
        long expectedChecksum = 0;
        for (int i = 0; i < expectedRows; i++) {
            fill(expected, i);
            expectedChecksum += checksum(expected);
        }
        check("checksum of the rows scanned from " + file, expectedChecksum, checksum);
        return elapsed;
    }

    /** A sum over every column of the row, nulls included, so a scan must decode them all. */
    private static long checksum(RowData row) {
        long sum = row.getLong(0) + row.getInt(1) + size(row.getString(2));
        sum += size(row.getString(3)) + (row.isNullAt(4) ? 0 : (long) (row.getDouble(4) * 100));
        sum += row.getInt(5) + row.getTimestamp(6, 3).getMillisecond();
        return sum + (row.getBoolean(7) ? 1 : 0);
    }

    private static void check(String what, long expected, long actual) {
        if (expected != actual) {
            throw new IllegalStateException(
                    "Wrong result of the Parquet throughput probe: "
                            + what
                            + " is "
                            + actual
                            + ", expected "
                            + expected);
        }
    }

    private static int size(StringData s) {
        return ((BinaryStringData) s).getSizeInBytes();
    }

    private static StringData[] strings(int count, java.util.function.IntFunction<String> text) {
        StringData[] strings = new StringData[count];
        for (int i = 0; i < count; i++) {
            strings[i] = StringData.fromString(text.apply(i));
        }
        return strings;
    }

    private static Path path(java.nio.file.Path dir, String name) {
        return new Path(dir.resolve(name).toUri());
    }
}
