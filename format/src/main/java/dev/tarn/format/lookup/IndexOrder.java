package dev.tarn.format.lookup;

import dev.tarn.format.bucket.BucketHasher;
import dev.tarn.format.lsm.KeyComparator;
import java.util.function.ToIntFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * How a {@link SpillingBucketStore} orders its rows: rows of one type by their index-key fields,
 * and by the first {@code f} of them for a prefix scan. One {@link KeyComparator} per prefix length
 * (the first field's normalized prefix is the same for all, so a long comparison decides most
 * orders without reading the rows). {@code KeyValueSchema} is not used: it describes the files of a
 * primary-key table (sequence and kind columns), while a store holds projected rows. REQUIRES:
 * index-key fields are never null (a row with a null join column never joins, so it is not kept).
 * Thread-safe: it holds no mutable state.
 */
final class IndexOrder {

    private final RowType rowType;
    private final int[] keyFields;

    /** {@code byFields[f]} orders by the first {@code f} index-key fields; [0] is unused. */
    private final KeyComparator[] byFields;

    private final boolean[] decides;

    /** Hashes the index-key fields: by the SQL values as bucketing does, but in tests. */
    private final ToIntFunction<RowData> hasher;

    IndexOrder(RowType rowType, int[] keyFields) {
        this(rowType, keyFields, new BucketHasher(rowType, keyFields)::hash);
    }

    /** As the other constructor, with a hash of its own: for tests that force hash collisions. */
    IndexOrder(RowType rowType, int[] keyFields, ToIntFunction<RowData> hash) {
        if (keyFields.length == 0) {
            throw new IllegalArgumentException(
                    "A lookup store of " + rowType + " needs at least one index-key field");
        }
        this.rowType = rowType;
        this.keyFields = keyFields.clone();
        this.byFields = new KeyComparator[keyFields.length + 1];
        this.decides = new boolean[keyFields.length + 1];
        for (int f = 1; f <= keyFields.length; f++) {
            byFields[f] = new KeyComparator(rowType, java.util.Arrays.copyOf(keyFields, f));
            decides[f] = byFields[f].prefixDecides();
        }
        this.hasher = hash;
    }

    /** A hash of a row's index-key fields: equal index keys hash equal. */
    int hash(RowData row) {
        return hasher.applyAsInt(row);
    }

    RowType rowType() {
        return rowType;
    }

    int arity() {
        return rowType.getFieldCount();
    }

    /** How many index-key fields there are. */
    int fields() {
        return keyFields.length;
    }

    /** The normalized prefix of a row's first index-key field. */
    long prefix(BinaryRowData row) {
        return byFields[keyFields.length].prefix(row);
    }

    /** Orders two rows by their first {@code fields} index-key fields. */
    int compare(RowData a, RowData b, int fields) {
        return byFields[fields].compare(a, b);
    }

    /**
     * Orders two rows by their first {@code fields} index-key fields, given their prefixes: the
     * rows are only read when the prefixes tie and do not decide.
     */
    int compare(long prefixA, RowData a, long prefixB, RowData b, int fields) {
        if (prefixA != prefixB) {
            return Long.compare(prefixA, prefixB);
        }
        return decides[fields] ? 0 : byFields[fields].compare(a, b);
    }

    /** The index key of a row, for messages: {@code [7, x]}. */
    String describe(RowData row) {
        return byFields[keyFields.length].describe(row);
    }
}
