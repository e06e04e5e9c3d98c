package dev.tarn.format.lsm;

/**
 * A binary min-heap of the current heads of sorted runs, ordered by (key, sequence, run index): the
 * run index breaks ties so that, runs being numbered oldest first, the newer run's version of an
 * equal (key, sequence) comes out last and wins. Holds at most one head per run; allocation free
 * after construction. The order every k-way merge of runs shares: the sort buffer's merge of its
 * spilled runs and the tree's merge of its files.
 */
public final class KeyValueHeap {

    private final KeyComparator keys;
    private final KeyValue[] heads;
    private final int[] heap;
    private int size;

    public KeyValueHeap(KeyComparator keys, int runs) {
        this.keys = keys;
        this.heads = new KeyValue[runs];
        this.heap = new int[runs];
    }

    /** REQUIRES: {@code run} has no head in the heap. */
    public void push(int run, KeyValue head) {
        heads[run] = head;
        int i = size++;
        heap[i] = run;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (less(heap[parent], heap[i])) {
                break;
            }
            swap(parent, i);
            i = parent;
        }
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** REQUIRES: not empty. */
    public KeyValue peek() {
        return heads[heap[0]];
    }

    /** Removes the smallest head and returns its run; its head is {@link #head(int)}. */
    public int poll() {
        int top = heap[0];
        heap[0] = heap[--size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (less(heap[i], heap[child])) {
                break;
            }
            swap(i, child);
            i = child;
        }
        return top;
    }

    public KeyValue head(int run) {
        return heads[run];
    }

    private boolean less(int runA, int runB) {
        KeyValue a = heads[runA];
        KeyValue b = heads[runB];
        int c = keys.compare(a.row(), b.row());
        if (c == 0) {
            c = Long.compare(a.sequence(), b.sequence());
        }
        return c != 0 ? c < 0 : runA < runB;
    }

    private void swap(int i, int j) {
        int t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }
}
