package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.util.Iterator;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;

/**
 * Merges the versions of each key of one sorted run whose rows stay valid (a {@link
 * SortBuffer#stableIterator()}): consecutive equal keys go through the {@link MergeFunction} as
 * they are, with no heap and no copies. The single-run special case of {@link MergeIterator}, for
 * flushing a buffer that did not spill. A returned key value is valid until the next {@code
 * hasNext()} or {@code next()}.
 */
final class StableRunMerge implements Iterator<KeyValue> {

    private final Iterator<KeyValue> run;
    private final KeyComparator keys;
    private final MergeFunction merge;
    private final boolean dropDeletes;
    @Nullable private KeyValue pending;
    @Nullable private KeyValue next;

    StableRunMerge(
            Iterator<KeyValue> run, KeyComparator keys, MergeFunction merge, boolean dropDeletes) {
        this.run = run;
        this.keys = keys;
        this.merge = merge;
        this.dropDeletes = dropDeletes;
    }

    @Override
    public boolean hasNext() {
        while (next == null && (pending != null || run.hasNext())) {
            KeyValue first = pending != null ? pending : run.next();
            pending = null;
            merge.reset();
            merge.add(first);
            while (run.hasNext()) {
                KeyValue kv = run.next();
                if (keys.compare(kv.row(), first.row()) != 0) {
                    pending = kv;
                    break;
                }
                merge.add(kv);
            }
            KeyValue result = merge.result();
            if (result != null && !(dropDeletes && result.isRetraction())) {
                next = result;
            }
        }
        return next != null;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The sorted run is merged");
        }
        KeyValue result = next;
        next = null;
        return result;
    }
}
