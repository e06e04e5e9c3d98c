package dev.tarn.format.lsm;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * One change to one key: the full table row (all columns in table order; the key is the row's
 * primary-key fields), the kind of change and the sequence number that orders changes to a key.
 *
 * <p>A {@link RowKind#DELETE} or {@link RowKind#UPDATE_BEFORE} is a retraction: stored, it is a
 * tombstone that hides older versions of the key until compaction reaches the last level. The row
 * may be a reused object of whatever produced it; see the producer's contract for how long it stays
 * valid, and copy it with a {@link RowCopier} to keep it longer.
 */
public record KeyValue(long sequence, RowKind kind, RowData row) {

    public KeyValue {
        if (kind == null || row == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Key value with sequence %d needs a kind and a row, got %s and %s",
                            sequence, kind, row));
        }
    }

    /** True for DELETE and UPDATE_BEFORE: the change removes the key's current row. */
    public boolean isRetraction() {
        return isRetraction(kind);
    }

    public static boolean isRetraction(RowKind kind) {
        return kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
    }
}
