package dev.tarn.format.lookup;

/**
 * An open-addressing hash table over the base run of a {@link MemoryRows}: from an index key's hash
 * to the row addresses of the entries with that hash, so that an exact get probes a slot or two and
 * then reads the row, instead of binary-searching a run of a million entries. A slot holds the
 * address itself, not the entry's position in the run, so a get pays two cache misses (the slot,
 * the row) rather than three (the slot, the run's address array, the row). Its owner keeps it in
 * step with the run: where an entry's address changes (its row replaced elsewhere in the pages,
 * moved by a compaction of the pages, turned into a tombstone or back), {@link #readdress}; where
 * the run's positions change (a merge, a clear), a new index. Reads may run concurrently with each
 * other, never with {@link #readdress}.
 */
final class KeyHashIndex {

    /** Slots per entry, at least: keeps probe sequences short (about 1.3 slots per get). */
    private static final int LOAD_FACTOR_INVERSE = 2;

    /** What {@link #address} answers for a slot that holds an entry of another hash. */
    static final int OTHER_HASH = Integer.MIN_VALUE;

    /**
     * Slot value 0 is empty; others hold an entry's hash in the high half and its address (never 0;
     * negative for a tombstone) in the low half, so a probe skips other hashes without reading a
     * row.
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

    /**
     * Indexes the first {@code count} entries, whose hashes {@code hashes} and whose addresses
     * {@code addresses} (none 0) hold.
     */
    static KeyHashIndex build(int[] hashes, int[] addresses, int count) {
        long[] slots = new long[capacity(count)];
        int mask = slots.length - 1;
        for (int pos = 0; pos < count; pos++) {
            int i = spread(hashes[pos]) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = entry(hashes[pos], addresses[pos]);
        }
        return new KeyHashIndex(slots);
    }

    private static long entry(int hash, int address) {
        return ((long) hash << 32) | (address & 0xFFFF_FFFFL);
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
     * The address held in {@code slot} if its entry has hash {@code hash}; 0 if the slot is empty
     * (the probe sequence ends); {@link #OTHER_HASH} if it holds an entry of another hash (probe
     * on).
     */
    int address(int slot, int hash) {
        long entry = slots[slot];
        if (entry == 0) {
            return 0;
        }
        return (int) (entry >>> 32) == hash ? (int) entry : OTHER_HASH;
    }

    /**
     * Makes the entry of hash {@code hash} and address {@code from} hold address {@code to}.
     *
     * @throws IllegalStateException if no entry holds them: the index and its run disagree
     */
    void readdress(int hash, int from, int to) {
        long old = entry(hash, from);
        for (int slot = first(hash); slots[slot] != 0; slot = next(slot)) {
            if (slots[slot] == old) {
                slots[slot] = entry(hash, to);
                return;
            }
        }
        throw new IllegalStateException(
                "The lookup's hash index has no entry of hash " + hash + " at address " + from);
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
