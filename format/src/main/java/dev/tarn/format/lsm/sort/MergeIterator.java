package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueHeap;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;

/**
 * Merges sorted runs into one stream with one result per key: a k-way merge over a heap of run
 * heads that feeds every version of a key to a {@link MergeFunction} in (sequence, run) order and
 * emits its result. Runs are given oldest first, each sorted by (key, sequence) and possibly
 * holding several versions of a key; on equal key and sequence the newer run is fed last and so
 * wins. With {@code dropDeletes} (when nothing older lies below the output: the last level, or a
 * read) results that are tombstones are dropped; otherwise they are kept to hide older versions.
 *
 * <p>Memory: one head per run plus one key's versions, which are copied (into reused buffers) as
 * they are taken, because a run may reuse the object it returned once it is advanced. The merge
 * function may therefore keep references until its next reset. A returned key value is valid until
 * the next {@code hasNext()} or {@code next()}. Not thread-safe; the runs are not closed here.
 */
final class MergeIterator implements Iterator<KeyValue> {

    private final List<? extends Iterator<KeyValue>> runs;
    private final KeyComparator keys;
    private final MergeFunction merge;
    private final boolean dropDeletes;
    private final KeyValueHeap heap;
    private final CopyPool copies;
    @Nullable private KeyValue next;

    MergeIterator(
            List<? extends Iterator<KeyValue>> runs,
            KeyComparator keys,
            MergeFunction merge,
            boolean dropDeletes) {
        this.runs = runs;
        this.keys = keys;
        this.merge = merge;
        this.dropDeletes = dropDeletes;
        this.heap = new KeyValueHeap(keys, runs.size());
        this.copies = new CopyPool(keys);
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).hasNext()) {
                heap.push(i, runs.get(i).next());
            }
        }
    }

    @Override
    public boolean hasNext() {
        while (next == null && !heap.isEmpty()) {
            next = mergeNextKey();
        }
        return next != null;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("All " + runs.size() + " sorted runs are merged");
        }
        KeyValue result = next;
        next = null;
        return result;
    }

    /** Merges all versions of the smallest key; null if the key has no visible result. */
    @Nullable
    private KeyValue mergeNextKey() {
        copies.reset();
        merge.reset();
        KeyValue first = take();
        merge.add(first);
        while (!heap.isEmpty() && keys.compare(heap.peek().row(), first.row()) == 0) {
            merge.add(take());
        }
        KeyValue result = merge.result();
        if (result == null || (dropDeletes && result.isRetraction())) {
            return null;
        }
        return result;
    }

    /** Removes the smallest head, copies it, and advances its run. */
    private KeyValue take() {
        int run = heap.poll();
        KeyValue copy = copies.copy(heap.head(run));
        Iterator<KeyValue> iterator = runs.get(run);
        if (iterator.hasNext()) {
            heap.push(run, iterator.next());
        }
        return copy;
    }
}
