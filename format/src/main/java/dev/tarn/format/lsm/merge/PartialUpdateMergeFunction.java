package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Merge engine {@code partial-update}: each field takes the value of the newest version in which it
 * is not null, so writers may each fill in their own columns. The result is an INSERT with the
 * newest sequence, read from the merged versions in place. A retraction cannot be applied to a
 * partial row and is refused, unless {@code ignore-delete} drops retractions before they get here.
 */
final class PartialUpdateMergeFunction implements MergeFunction {

    private final KeyComparator keys;
    private final MergedRow merged;
    private long sequence;
    private boolean empty = true;

    PartialUpdateMergeFunction(KeyComparator keys) {
        this.keys = keys;
        this.merged = new MergedRow(keys.rowType().getFieldCount());
    }

    @Override
    public void reset() {
        merged.clear();
        empty = true;
    }

    @Override
    public void add(KeyValue kv) {
        if (kv.isRetraction()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Merge engine 'partial-update' cannot apply the %s of key %s"
                                    + " (sequence %d): a partial row cannot be retracted; set"
                                    + " 'ignore-delete' = 'true' to drop retractions",
                            kv.kind(), keys.describe(kv.row()), kv.sequence()));
        }
        RowData row = kv.row();
        for (int i = 0; i < merged.getArity(); i++) {
            if (!row.isNullAt(i)) {
                merged.set(i, row);
            }
        }
        sequence = kv.sequence();
        empty = false;
    }

    @Nullable
    @Override
    public KeyValue result() {
        return empty ? null : new KeyValue(sequence, RowKind.INSERT, merged);
    }
}
