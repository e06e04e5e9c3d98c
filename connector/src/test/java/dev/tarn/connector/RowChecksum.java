package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * An order-independent fingerprint of a multiset of rows over every column: the row count, and the
 * sum and the xor of a 64-bit hash of each row's values (its kind left out). A row lost, written
 * twice or with one changed value changes the fingerprint (but for a 2^-64 collision), so a test
 * compares what a table holds with what its input was without comparing the rows one by one.
 */
record RowChecksum(long rows, long sum, long xor) {

    /** Marks a null value, so that null and the string "null" hash apart. */
    private static final long NULL = 0x9E3779B97F4A7C15L;

    static RowChecksum of(Collection<Row> rows) {
        long sum = 0;
        long xor = 0;
        for (Row row : rows) {
            long h = hash(row);
            sum += h;
            xor ^= h;
        }
        return new RowChecksum(rows.size(), sum, xor);
    }

    /**
     * Asserts that {@code actual} holds the rows of {@code expected}, each as often; on a mismatch
     * the message names some of the rows that differ.
     */
    static void assertSameRows(String what, Collection<Row> actual, Collection<Row> expected) {
        assertThat(of(actual))
                .as(() -> what + " differ from the input: " + difference(actual, expected))
                .isEqualTo(of(expected));
    }

    /** A 64-bit hash of every value of {@code row} in position, through its text form. */
    static long hash(Row row) {
        long h = row.getArity();
        for (int i = 0; i < row.getArity(); i++) {
            Object value = row.getField(i);
            h = mix(h * 31 + (value == null ? NULL : fnv(String.valueOf(value))));
        }
        return h;
    }

    private static long fnv(String s) {
        long h = 0xCBF29CE484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return h;
    }

    /** The finalizer of SplitMix64: every input bit affects every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Up to 5 rows missing from {@code actual} and 5 it has in excess, with their counts. */
    private static String difference(Collection<Row> actual, Collection<Row> expected) {
        Map<String, Integer> counts = new HashMap<>();
        expected.forEach(r -> counts.merge(fieldsOf(r), 1, Integer::sum));
        actual.forEach(r -> counts.merge(fieldsOf(r), -1, Integer::sum));
        List<String> missing = new ArrayList<>();
        List<String> excess = new ArrayList<>();
        long missingCount = 0;
        long excessCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            int n = e.getValue();
            if (n > 0) {
                missingCount += n;
                if (missing.size() < 5) {
                    missing.add(e.getKey() + (n > 1 ? " x" + n : ""));
                }
            } else if (n < 0) {
                excessCount -= n;
                if (excess.size() < 5) {
                    excess.add(e.getKey() + (n < -1 ? " x" + -n : ""));
                }
            }
        }
        return String.format(
                "%d rows missing (e.g. %s), %d rows in excess (e.g. %s)",
                missingCount, missing, excessCount, excess);
    }

    private static String fieldsOf(Row row) {
        Row values = Row.copy(row);
        values.setKind(RowKind.INSERT);
        return values.toString();
    }
}
