package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Merge engine {@code aggregation}: every non-key field folds its versions with its own {@link
 * FieldAggregator} ({@code fields.<f>.aggregate-function}); key fields come from the newest
 * version. A retraction is folded in by the aggregators' {@code retract} (sum subtracts), or
 * skipped for fields with {@code fields.<f>.ignore-retract}. The result is always an INSERT with
 * the newest sequence: an aggregated key never disappears.
 */
final class AggregateMergeFunction implements MergeFunction {

    /** Per field its aggregator, null for key fields. */
    private final FieldAggregator[] aggregators;

    private final boolean[] ignoreRetract;
    private final MergedRow merged;
    private RowData newest;
    private long sequence;
    private boolean empty = true;

    AggregateMergeFunction(FieldAggregator[] aggregators, boolean[] ignoreRetract) {
        this.aggregators = aggregators;
        this.ignoreRetract = ignoreRetract;
        this.merged = new MergedRow(aggregators.length);
    }

    @Override
    public void reset() {
        for (FieldAggregator aggregator : aggregators) {
            if (aggregator != null) {
                aggregator.reset();
            }
        }
        empty = true;
    }

    @Override
    public void add(KeyValue kv) {
        RowData row = kv.row();
        boolean retract = kv.isRetraction();
        for (int i = 0; i < aggregators.length; i++) {
            FieldAggregator aggregator = aggregators[i];
            if (aggregator == null) {
                continue;
            }
            if (!retract) {
                aggregator.add(row, i);
            } else if (!ignoreRetract[i]) {
                aggregator.retract(row, i);
            }
        }
        newest = row;
        sequence = kv.sequence();
        empty = false;
    }

    @Nullable
    @Override
    public KeyValue result() {
        if (empty) {
            return null;
        }
        for (int i = 0; i < aggregators.length; i++) {
            FieldAggregator aggregator = aggregators[i];
            if (aggregator == null) {
                merged.set(i, newest);
            } else {
                merged.set(i, aggregator.source(), i);
            }
        }
        return new KeyValue(sequence, RowKind.INSERT, merged);
    }
}
