package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueHeap;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Interleaves sorted runs into one stream in (key, sequence, run index) order, without merging
 * versions: a k-way merge over a {@link KeyValueHeap}. A run is advanced only when the next element
 * is asked for, so the element returned last stays valid until the following {@code hasNext()} or
 * {@code next()} even when its run reuses objects.
 */
final class InterleavingIterator implements Iterator<KeyValue> {

    private final List<? extends Iterator<KeyValue>> runs;
    private final KeyValueHeap heap;

    /** The run whose head was returned last and is still to be advanced; -1 for none. */
    private int pendingRun = -1;

    InterleavingIterator(KeyComparator keys, List<? extends Iterator<KeyValue>> runs) {
        this.runs = runs;
        this.heap = new KeyValueHeap(keys, runs.size());
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).hasNext()) {
                heap.push(i, runs.get(i).next());
            }
        }
    }

    @Override
    public boolean hasNext() {
        advancePending();
        return !heap.isEmpty();
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("All sorted runs are exhausted");
        }
        pendingRun = heap.poll();
        return heap.head(pendingRun);
    }

    private void advancePending() {
        if (pendingRun >= 0) {
            Iterator<KeyValue> run = runs.get(pendingRun);
            if (run.hasNext()) {
                heap.push(pendingRun, run.next());
            }
            pendingRun = -1;
        }
    }
}
