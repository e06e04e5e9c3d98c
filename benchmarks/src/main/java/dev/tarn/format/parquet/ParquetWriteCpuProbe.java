package dev.tarn.format.parquet;

import com.sun.management.ThreadMXBean;
import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;

/**
 * The CPU cost of writing a Parquet file of the append benchmark's rows (the shape of the
 * benchmarks module's generator: BIGINT, INT, two random 16-character STRINGs, DOUBLE, INT,
 * TIMESTAMP(3), BOOLEAN) through the record path and the flat path, interleaved over several
 * rounds, as CPU seconds of the writing thread per million rows, and the bytes it allocates per
 * row. Rows come from a pre-built pool larger than any dictionary Parquet keeps, so the timings
 * hold writing only and the columns encode as the generator's unique values do. It lives in the
 * format's Parquet package to choose the write path, which the format does not expose. Every file
 * is checked: its footer must count every row written.
 */
public final class ParquetWriteCpuProbe {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("k", DataTypes.INT()),
                                    DataTypes.FIELD("s1", DataTypes.STRING()),
                                    DataTypes.FIELD("s2", DataTypes.STRING()),
                                    DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("qty", DataTypes.INT()),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()))
                            .getLogicalType();

    private static final byte[] ALPHABET =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes();

    /** Rows written, cycled: 2^18 distinct values overflow every 1 MiB dictionary. */
    private static final RowData[] POOL = new RowData[1 << 18];

    static {
        for (int i = 0; i < POOL.length; i++) {
            POOL[i] = row(i);
        }
    }

    private static final FileIO IO = FileIO.flinkFileSystems();
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ParquetWriteCpuProbe() {}

    /** Writes {@code rows} rows through each path in {@code runs} rounds, after a warm-up. */
    public static void run(int rows, int runs, PrintStream out) throws IOException {
        java.nio.file.Path dir = Files.createTempDirectory("parquet-write-probe");
        try {
            // Warm up both paths so the JIT has compiled them before the first timed round.
            for (int i = 0; i < 2; i++) {
                write(dir, ParquetDataWriter.WritePath.RECORD, Math.max(1, rows / 5));
                write(dir, ParquetDataWriter.WritePath.FLAT, Math.max(1, rows / 5));
            }
            List<Double> record = new ArrayList<>();
            List<Double> flat = new ArrayList<>();
            for (int round = 0; round < runs; round++) {
                long[] r = write(dir, ParquetDataWriter.WritePath.RECORD, rows);
                long[] f = write(dir, ParquetDataWriter.WritePath.FLAT, rows);
                record.add(perMillion(r[0], rows));
                flat.add(perMillion(f[0], rows));
                out.printf(
                        "round %d: record %.3f, flat %.3f CPU-s/M rows; allocated record %d, flat"
                                + " %d bytes/row%n",
                        round, record.get(round), flat.get(round), r[1] / rows, f[1] / rows);
            }
            out.printf(
                    "Parquet write CPU, medians over %d rounds of %,d rows, CPU-s per million"
                            + " rows: record %.3f, flat %.3f%n",
                    runs, rows, median(record), median(flat));
        } finally {
            IO.delete(new Path(dir.toUri()), true);
        }
    }

    /** CPU nanoseconds and bytes allocated to write {@code rows} rows of the pool to a file. */
    private static long[] write(java.nio.file.Path dir, ParquetDataWriter.WritePath path, int rows)
            throws IOException {
        java.nio.file.Path file = dir.resolve(path + "-" + System.nanoTime() + ".parquet");
        long start = THREADS.getCurrentThreadCpuTime();
        long allocated = THREADS.getCurrentThreadAllocatedBytes();
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(
                        IO,
                        new Path(file.toUri()),
                        TYPE,
                        ParquetDataWriter.Options.defaults(),
                        WriterVersion.PARQUET_1_0,
                        path)) {
            for (int i = 0; i < rows; i++) {
                writer.write(POOL[i & (POOL.length - 1)]);
            }
            long written = writer.finish().rowCount();
            if (written != rows) {
                throw new IllegalStateException(
                        "Wrong result of the Parquet write probe: the footer of "
                                + file
                                + " counts "
                                + written
                                + " rows, expected "
                                + rows);
            }
        }
        long cpu = THREADS.getCurrentThreadCpuTime() - start;
        allocated = THREADS.getCurrentThreadAllocatedBytes() - allocated;
        Files.delete(file);
        return new long[] {cpu, allocated};
    }

    /** Row {@code i} of the benchmark generator, with strings as UTF-8 bytes. */
    private static RowData row(long i) {
        long h = mix(i);
        return GenericRowData.of(
                i + 1,
                (int) Math.floorMod(h, 1000),
                text(h),
                text(mix(h)),
                (h >>> 11) * 0x1.0p-53 * 1000,
                (int) (h >>> 40) & 0xFFFF,
                TimestampData.fromEpochMillis(1_764_000_000_000L + i * 10),
                (h & 1) == 0);
    }

    private static BinaryStringData text(long h) {
        byte[] chars = new byte[16];
        for (int c = 0; c < chars.length; c++) {
            chars[c] = ALPHABET[(int) Math.floorMod(h, ALPHABET.length)];
            h = h / ALPHABET.length + (h << 7);
        }
        return BinaryStringData.fromBytes(chars);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static double perMillion(long nanos, int rows) {
        return nanos / 1e9 / (rows / 1e6);
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
