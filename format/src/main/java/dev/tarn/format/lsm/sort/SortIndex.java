package dev.tarn.format.lsm.sort;

import java.util.Arrays;

/**
 * The sort index of a {@link SortBuffer}: per record its normalized key prefix, address and
 * sequence as three consecutive longs of one array, sorted in place by (key, sequence, insertion
 * order). The sort is an introsort on primitives: quicksort with a pivot that is the median of
 * three random entries, heapsort below a depth limit (so adversarial input stays O(n log n)),
 * insertion sort for short ranges. Full keys are compared only when prefixes tie and the prefix
 * does not decide alone.
 */
final class SortIndex {

    /** Compares the full keys of the records at two addresses. */
    @FunctionalInterface
    interface KeyTieBreaker {
        int compare(long addressA, long addressB);
    }

    /** Memory one entry takes: three longs. */
    static final int ENTRY_BYTES = 24;

    /** Ranges this short are insertion sorted: fewer comparisons than partitioning them. */
    private static final int INSERTION_SORT_THRESHOLD = 16;

    private static final int INITIAL_ENTRIES = 1024;

    private final boolean prefixDecides;
    private final KeyTieBreaker tieBreaker;
    private long[] entries = new long[3 * INITIAL_ENTRIES];
    private int count;
    private long random = 0x9E3779B97F4A7C15L;

    SortIndex(boolean prefixDecides, KeyTieBreaker tieBreaker) {
        this.prefixDecides = prefixDecides;
        this.tieBreaker = tieBreaker;
    }

    void add(long prefix, long address, long sequence) {
        int at = 3 * count;
        if (at == entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        entries[at] = prefix;
        entries[at + 1] = address;
        entries[at + 2] = sequence;
        count++;
    }

    int size() {
        return count;
    }

    long address(int i) {
        return entries[3 * i + 1];
    }

    long sequence(int i) {
        return entries[3 * i + 2];
    }

    void clear() {
        count = 0;
    }

    void release() {
        count = 0;
        entries = new long[3 * INITIAL_ENTRIES];
    }

    void sort() {
        if (count > 1) {
            int depthLimit = 2 * (32 - Integer.numberOfLeadingZeros(count));
            quickSort(0, count - 1, depthLimit);
        }
    }

    private void quickSort(int lo, int hi, int depthLimit) {
        while (hi - lo > INSERTION_SORT_THRESHOLD) {
            if (depthLimit-- == 0) {
                heapSort(lo, hi);
                return;
            }
            // Median of three random entries: patterned input (sorted runs, sawtooth) cannot
            // make every pivot a bad one.
            int n = hi - lo + 1;
            int a = lo + nextRandom(n);
            int b = lo + nextRandom(n);
            int c = lo + nextRandom(n);
            int median =
                    compare(a, b) < 0
                            ? (compare(b, c) < 0 ? b : compare(a, c) < 0 ? c : a)
                            : (compare(a, c) < 0 ? a : compare(b, c) < 0 ? c : b);
            swap(median, hi);
            int p = lo;
            for (int j = lo; j < hi; j++) {
                if (compare(j, hi) < 0) {
                    swap(p++, j);
                }
            }
            swap(p, hi);
            if (p - lo < hi - p) {
                quickSort(lo, p - 1, depthLimit);
                lo = p + 1;
            } else {
                quickSort(p + 1, hi, depthLimit);
                hi = p - 1;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && compare(j - 1, j) > 0; j--) {
                swap(j - 1, j);
            }
        }
    }

    /** A pseudo-random number in [0, bound), from a fixed-seed xorshift: sorts stay repeatable. */
    private int nextRandom(int bound) {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int) Math.floorMod(x, (long) bound);
    }

    private void heapSort(int lo, int hi) {
        int n = hi - lo + 1;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(lo, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            swap(lo, lo + end);
            siftDown(lo, 0, end);
        }
    }

    private void siftDown(int lo, int i, int n) {
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                return;
            }
            if (child + 1 < n && compare(lo + child + 1, lo + child) > 0) {
                child++;
            }
            if (compare(lo + i, lo + child) >= 0) {
                return;
            }
            swap(lo + i, lo + child);
            i = child;
        }
    }

    private int compare(int i, int j) {
        long[] e = entries;
        int a = 3 * i;
        int b = 3 * j;
        int c = Long.compare(e[a], e[b]);
        if (c != 0) {
            return c;
        }
        if (!prefixDecides) {
            c = tieBreaker.compare(e[a + 1], e[b + 1]);
            if (c != 0) {
                return c;
            }
        }
        c = Long.compare(e[a + 2], e[b + 2]);
        // Equal key and sequence: the earlier insert first; addresses grow with inserts.
        return c != 0 ? c : Long.compare(e[a + 1], e[b + 1]);
    }

    private void swap(int i, int j) {
        long[] e = entries;
        int a = 3 * i;
        int b = 3 * j;
        long t0 = e[a];
        long t1 = e[a + 1];
        long t2 = e[a + 2];
        e[a] = e[b];
        e[a + 1] = e[b + 1];
        e[a + 2] = e[b + 2];
        e[b] = t0;
        e[b + 1] = t1;
        e[b + 2] = t2;
    }
}
