package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * The write buffer of a primary-key table on one thread, on rows of 8 columns keyed by a BIGINT in
 * scrambled order: puts, then sorting and iterating them. Prints rows/s of each round and their
 * medians. It lives in the format's LSM package, beside the buffer it drives. Every round is
 * checked: it must return every row put, in key order.
 */
public final class SortBufferProbe {

    private static final RowType EIGHT_COLUMNS =
            RowType.of(
                    new BigIntType(false),
                    new IntType(),
                    new BigIntType(),
                    new DoubleType(),
                    new VarCharType(20),
                    new VarCharType(100),
                    new DecimalType(10, 2),
                    new TimestampType(3));

    /** Buffer bytes per row: these rows take about 150 (index included), so it never fills. */
    private static final long BYTES_PER_ROW = 256;

    /** Rows put and sorted untimed first, so the JIT has compiled the hot paths. */
    private static final int WARM_UP_ROWS = 100_000;

    private SortBufferProbe() {}

    /** Puts and sorts {@code rows} rows {@code runs} times, after a warm-up. */
    public static void run(int rows, int runs, PrintStream out) {
        round(Math.min(rows, WARM_UP_ROWS));
        List<Double> puts = new ArrayList<>();
        List<Double> sorts = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            double[] rates = round(rows);
            puts.add(rates[0]);
            sorts.add(rates[1]);
            out.printf(
                    "round %d: %,d rows of 8 columns, %d MiB used: put %.0f rows/s, sort+iterate"
                            + " %.0f rows/s%n",
                    r, rows, (long) rates[2] >> 20, rates[0], rates[1]);
        }
        out.printf(
                "SortBuffer, medians over %d rounds of %,d rows, rows/s: put %.0f, sort+iterate"
                        + " %.0f%n",
                runs, rows, median(puts), median(sorts));
    }

    /** One round: put rate, sort-and-iterate rate and buffer bytes used. */
    private static double[] round(int rows) {
        StringData[] names = new StringData[1024];
        DecimalData[] amounts = new DecimalData[1024];
        TimestampData[] times = new TimestampData[1024];
        for (int i = 0; i < names.length; i++) {
            names[i] = StringData.fromString("name-" + i);
            amounts[i] = DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 101L, 2), 10, 2);
            times[i] = TimestampData.fromEpochMillis(1_700_000_000_000L + i);
        }
        StringData comment = StringData.fromString("a comment column that is a bit longer");
        GenericRowData row = new GenericRowData(8);
        KeyComparator keys = new KeyComparator(EIGHT_COLUMNS, new int[] {0});
        long capacity = Math.max(16L << 20, rows * BYTES_PER_ROW);
        try (SortBuffer buffer = SortBuffer.inMemory(keys, capacity)) {
            long start = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                int s = i & 1023;
                row.setField(0, (i * 2_654_435_761L) % 1_250_000);
                row.setField(1, i);
                row.setField(2, (long) i * 31);
                row.setField(3, i * 0.5);
                row.setField(4, names[s]);
                row.setField(5, comment);
                row.setField(6, amounts[s]);
                row.setField(7, times[s]);
                if (!buffer.put(i, RowKind.INSERT, row)) {
                    throw new IllegalStateException(
                            "Sort buffer probe: a buffer of "
                                    + capacity
                                    + " bytes is full after "
                                    + i
                                    + " of "
                                    + rows
                                    + " rows");
                }
            }
            long put = System.nanoTime() - start;

            start = System.nanoTime();
            Iterator<KeyValue> sorted = buffer.iterator();
            long count = 0;
            long previous = Long.MIN_VALUE;
            long outOfOrder = 0;
            while (sorted.hasNext()) {
                long key = sorted.next().row().getLong(0);
                outOfOrder += key < previous ? 1 : 0;
                previous = key;
                count++;
            }
            long sort = System.nanoTime() - start;
            if (count != rows || outOfOrder != 0) {
                throw new IllegalStateException(
                        "Wrong result of the sort buffer probe: "
                                + count
                                + " rows returned of "
                                + rows
                                + " put, "
                                + outOfOrder
                                + " of them after a greater key");
            }
            return new double[] {rows / (put / 1e9), rows / (sort / 1e9), buffer.memoryUsed()};
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
