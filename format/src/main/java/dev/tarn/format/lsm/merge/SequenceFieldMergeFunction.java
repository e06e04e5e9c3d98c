package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.RowType;

/**
 * Option {@code sequence.field}: the versions of a key are ordered by the values of these columns
 * (null first), then by sequence, instead of by sequence alone, so that late-arriving old data
 * cannot overwrite newer data. Gathers the key's versions (valid until reset, by the {@link
 * MergeFunction} contract), sorts them stably and feeds them to the engine in that order.
 *
 * <p>Caveat, as in Paimon: a tombstone hides only the versions it meets in a merge. Once a
 * compaction to the last level has dropped it, a version that arrives later with a smaller sequence
 * field is visible again.
 */
final class SequenceFieldMergeFunction implements MergeFunction {

    private final MergeFunction engine;
    private final Comparator<KeyValue> order;
    private final List<KeyValue> versions = new ArrayList<>();

    SequenceFieldMergeFunction(MergeFunction engine, RowType rowType, int[] sequenceFields) {
        this.engine = engine;
        KeyComparator[] comparators = new KeyComparator[sequenceFields.length];
        for (int i = 0; i < sequenceFields.length; i++) {
            try {
                comparators[i] = new KeyComparator(rowType, new int[] {sequenceFields[i]});
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option 'sequence.field' names column '%s' of type %s, which"
                                        + " cannot order versions",
                                rowType.getFieldNames().get(sequenceFields[i]),
                                rowType.getTypeAt(sequenceFields[i])),
                        e);
            }
        }
        this.order =
                (a, b) -> {
                    for (int i = 0; i < sequenceFields.length; i++) {
                        boolean aNull = a.row().isNullAt(sequenceFields[i]);
                        boolean bNull = b.row().isNullAt(sequenceFields[i]);
                        int c =
                                aNull || bNull
                                        ? Boolean.compare(!aNull, !bNull)
                                        : comparators[i].compare(a.row(), b.row());
                        if (c != 0) {
                            return c;
                        }
                    }
                    return Long.compare(a.sequence(), b.sequence());
                };
    }

    @Override
    public void reset() {
        versions.clear();
    }

    @Override
    public void add(KeyValue kv) {
        versions.add(kv);
    }

    @Nullable
    @Override
    public KeyValue result() {
        versions.sort(order);
        engine.reset();
        for (KeyValue kv : versions) {
            engine.add(kv);
        }
        return engine.result();
    }
}
