package dev.tarn.format.lsm.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import java.math.BigDecimal;
import java.util.Iterator;
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
import org.junit.jupiter.api.Test;

/**
 * A quick timing, printed, of the write buffer on the benchmark's row shape: one million puts of 8
 * columns keyed by a BIGINT in scrambled order, then sorting and iterating them. It asserts the
 * order only; the figures are for the reader of the build log.
 */
class SortBufferThroughputTest {

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

    @Test
    void putsAndSortsAMillionRows() {
        int rows = 1_000_000;
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
        try (SortBuffer buffer = SortBuffer.inMemory(keys, 256L << 20)) {
            boolean accepted = true;
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
                accepted &= buffer.put(i, RowKind.INSERT, row);
            }
            long put = System.nanoTime() - start;
            assertThat(accepted).isTrue();

            start = System.nanoTime();
            Iterator<KeyValue> sorted = buffer.iterator();
            long count = 0;
            long previous = Long.MIN_VALUE;
            boolean ordered = true;
            while (sorted.hasNext()) {
                long key = sorted.next().row().getLong(0);
                ordered &= key >= previous;
                previous = key;
                count++;
            }
            long sort = System.nanoTime() - start;

            assertThat(count).isEqualTo(rows);
            assertThat(ordered).isTrue();
            System.out.printf(
                    "SortBuffer, %d rows of 8 columns, %d MiB used: put %.0f rows/s,"
                            + " sort+iterate %.0f rows/s%n",
                    rows, buffer.memoryUsed() >> 20, rows / (put / 1e9), rows / (sort / 1e9));
        }
    }
}
