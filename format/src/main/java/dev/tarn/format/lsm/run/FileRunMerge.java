package dev.tarn.format.lsm.run;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueHeap;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;

/**
 * Merges sorted runs of data files, which hold at most one change per key each, without copying
 * rows: the versions of the smallest key are the heads of some runs, so they are merged in place
 * and those runs advance only when the caller asks for the next key. Versions come out of the heap
 * in (sequence, run) order, runs given oldest first, so the newer run wins a tie. With {@code
 * dropDeletes}, results that are tombstones are dropped.
 *
 * <p>A {@link Diff} given to it sees, for every key, the version of the oldest run (if that run
 * holds the key) beside the merged result, tombstones and empty results included, before {@code
 * dropDeletes} drops them: what a full compaction's changelog compares.
 *
 * <p>REQUIRES: no run returns two changes of one key. A returned key value is valid until the next
 * {@code hasNext()} or {@code next()}; a run's rows until that run advances. Not thread-safe; the
 * runs are not closed here.
 */
public final class FileRunMerge implements Iterator<KeyValue> {

    /** Sees each merged key's version in the oldest run and its merged result. */
    @FunctionalInterface
    public interface Diff {
        /**
         * @param oldest the key's change in the oldest run, or null if that run lacks the key
         * @param merged the merged result, or null if the merge left nothing
         */
        void key(@Nullable KeyValue oldest, @Nullable KeyValue merged);
    }

    private final List<? extends Iterator<KeyValue>> runs;
    private final KeyComparator keys;
    private final MergeFunction merge;
    private final boolean dropDeletes;
    @Nullable private final Diff diff;
    private final KeyValueHeap heap;
    private final int[] taken;
    private int takenCount;
    @Nullable private KeyValue next;

    public FileRunMerge(
            List<? extends Iterator<KeyValue>> runs,
            KeyComparator keys,
            MergeFunction merge,
            boolean dropDeletes) {
        this(runs, keys, merge, dropDeletes, null);
    }

    /**
     * @param diff told of every key merged, or null
     */
    public FileRunMerge(
            List<? extends Iterator<KeyValue>> runs,
            KeyComparator keys,
            MergeFunction merge,
            boolean dropDeletes,
            @Nullable Diff diff) {
        this.runs = runs;
        this.diff = diff;
        this.keys = keys;
        this.merge = merge;
        this.dropDeletes = dropDeletes;
        this.heap = new KeyValueHeap(keys, runs.size());
        this.taken = new int[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).hasNext()) {
                heap.push(i, runs.get(i).next());
            }
        }
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            advanceTaken();
            if (heap.isEmpty()) {
                return false;
            }
            next = mergeSmallestKey();
        }
        return true;
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

    /** Takes the heads holding the smallest key and merges them; null if nothing is visible. */
    @Nullable
    private KeyValue mergeSmallestKey() {
        merge.reset();
        int first = heap.poll();
        taken[takenCount++] = first;
        KeyValue firstHead = heap.head(first);
        merge.add(firstHead);
        KeyValue oldest = first == 0 ? firstHead : null;
        while (!heap.isEmpty() && keys.compare(heap.peek().row(), firstHead.row()) == 0) {
            int run = heap.poll();
            taken[takenCount++] = run;
            merge.add(heap.head(run));
            if (run == 0) {
                oldest = heap.head(run);
            }
        }
        KeyValue result = merge.result();
        if (diff != null) {
            diff.key(oldest, result);
        }
        if (result == null || (dropDeletes && result.isRetraction())) {
            return null;
        }
        return result;
    }

    /** Moves the runs whose heads were merged to their next change. */
    private void advanceTaken() {
        for (int i = 0; i < takenCount; i++) {
            Iterator<KeyValue> run = runs.get(taken[i]);
            if (run.hasNext()) {
                heap.push(taken[i], run.next());
            }
        }
        takenCount = 0;
    }
}
