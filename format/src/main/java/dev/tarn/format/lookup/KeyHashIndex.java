package dev.tarn.format.lookup;

/**
 * An open-addressing hash table over the base run of a {@link MemoryRows}: from an index key's hash
 * to the positions in the run of the entries with that hash, so that an exact get probes a slot or
 * two instead of binary-searching a run of a million entries. It holds positions, not row
 * addresses, so it stays valid while rows move between pages, are replaced or become tombstones;
 * only a change of the run's positions (a merge, a clear) needs a new one. Immutable once built;
 * safe for concurrent reads.
 */
final class KeyHashIndex {

    /** Slots per entry, at least: keeps probe sequences short (about 1.3 slots per get). */
    private static final int LOAD_FACTOR_INVERSE = 2;

    /**
     * Slot value 0 is empty; others hold an entry's hash in the high half and its position + 1 in
     * the low half, so a probe skips other hashes without reading the run.
     */
    private final long[] slots;

    private final int mask;

    private KeyHashIndex(long[] slots) {
        this.slots = slots;
        this.mask = slots.length - 1;
    }

    /** The bytes an index of {@code entries} entries takes. */
    static long bytes(int entries) {
        return (long) Long.BYTES * capacity(entries);
    }

    private static int capacity(int entries) {
        return Integer.highestOneBit(Math.max(2, entries * LOAD_FACTOR_INVERSE - 1)) << 1;
    }

    /** Indexes the first {@code count} entries whose hashes {@code hashes} holds. */
    static KeyHashIndex build(int[] hashes, int count) {
        long[] slots = new long[capacity(count)];
        int mask = slots.length - 1;
        for (int pos = 0; pos < count; pos++) {
            int i = spread(hashes[pos]) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = ((long) hashes[pos] << 32) | (pos + 1);
        }
        return new KeyHashIndex(slots);
    }

    /** The slot where the probe sequence of {@code hash} starts. */
    int first(int hash) {
        return spread(hash) & mask;
    }

    /** The next slot of a probe sequence. */
    int next(int slot) {
        return (slot + 1) & mask;
    }

    /**
     * The position held in {@code slot} if its entry has hash {@code hash}; -1 if the slot is empty
     * (the probe sequence ends); -2 if it holds an entry of another hash (probe on).
     */
    int position(int slot, int hash) {
        long entry = slots[slot];
        if (entry == 0) {
            return -1;
        }
        return (int) (entry >>> 32) == hash ? (int) entry - 1 : -2;
    }

    /**
     * Scrambles a hash's bits: the rows of a bucket share the low bits of their bucket hash, which
     * would otherwise crowd them into a fraction of the slots.
     */
    private static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
