package dev.tarn.format.lsm.lookup;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The current row of every key of one bucket, in memory, for the {@code lookup} changelog producer
 * and a read that completes upserts: a sorted run. The rows lie in {@link RowPages}; the run is two
 * arrays in key order, each key's {@linkplain KeyComparator#prefix normalized prefix} and the
 * address of its row. Its users look keys up in ascending order (a flush's merged changes, a
 * split's rows), so a lookup gallops forward from the last one over the prefixes, and the entries
 * it reads lie mostly in the order it reads them: a pass over a bucket touches memory in sequence
 * instead of at random, as a hash table would.
 *
 * <p>A removed key stays in the run, marked, until the next pass. A key the run lacks is appended
 * when it is the greatest, else kept aside, in order, with the position it goes to; a lookup of a
 * key not above the last one starts a new pass, which first merges those in and drops the removed
 * ones, in place (the arrays are grown when a key is added, so a pass never fails). Keys looked up
 * in any order still get the right answers, at the cost of a merge and a binary search each.
 *
 * <p>Memory is reserved from {@link LookupMemory} before it is allocated. When a reservation fails
 * the call returns false and the index is {@linkplain #isDropped dropped}: it holds nothing, and
 * its owner rebuilds it or does without. The memory may also evict it while it is not pinned. Not
 * thread-safe otherwise: its bucket's writer (or the flush thread it waits for) uses it.
 *
 * <p>It stays over 400 lines: the run, the keys kept aside, the locations and the pass that merges
 * them are one structure whose invariant (entries in key order, reservations covering what is
 * allocated) every method keeps; the row storage is {@link RowPages} already, and what a location
 * means is {@link LocatedRows}'.
 */
final class LookupIndex {

    private static final int MIN_KEYS = 1024;

    /** Bytes per key of the run (prefix and address) and of a key kept aside (and its position). */
    private static final int RUN_BYTES = Long.BYTES + Integer.BYTES;

    private static final int ASIDE_BYTES = Long.BYTES + 2 * Integer.BYTES;

    /** Bytes an empty index reserves. */
    static final long EMPTY_BYTES = (long) (RUN_BYTES + ASIDE_BYTES) * MIN_KEYS;

    private final LookupMemory memory;
    private final KeyComparator keys;
    private final boolean prefixDecides;
    private final RowBytes encoder;
    private final BinaryRowData view;
    private final BinaryRowData probe;

    /** Whether each key also has a location ({@link #location}): 8 more bytes per key. */
    private final boolean located;

    private final RowPages rows = new RowPages(this::reserve, this::releasePart);
    private final RowPages.Live live = new Entries();
    private long reserved;
    private boolean dropped;
    private boolean tooLarge;

    /** The run: prefixes and addresses in key order; a removed key's address is negated. */
    private long[] prefixes;

    private int[] addresses;

    /** With {@link #located}: each key's location, beside its address. */
    private long[] locations;

    private int count;
    private int removed;

    /** Keys added within the run since its last merge, ascending, with the positions they go to. */
    private long[] asidePrefixes;

    private int[] asideAddresses;
    private int[] asidePositions;
    private long[] asideLocations;
    private int aside;

    /** Every key of the run before it orders before the last key looked up. */
    private int cursor;

    /** What the last {@link #find} found: an entry of the run, one kept aside, or neither. */
    private int[] current;

    private int currentIndex;
    private long lastPrefix;

    LookupIndex(KeyValueSchema schema, LookupMemory memory) {
        this(schema, memory, false);
    }

    /**
     * @param located whether each key also has a location, a long its user gives ({@link
     *     #setLocation}) and reads back ({@link #location})
     */
    LookupIndex(KeyValueSchema schema, LookupMemory memory, boolean located) {
        this.located = located;
        this.memory = memory;
        this.keys = schema.keys();
        this.prefixDecides = keys.prefixDecides();
        this.encoder = new RowBytes(schema.tableType());
        int arity = schema.tableType().getFieldCount();
        this.view = new BinaryRowData(arity);
        this.probe = new BinaryRowData(arity);
        this.dropped = true;
    }

    /** Starts empty; false (and dropped) if not even the empty index fits in the memory. */
    boolean reset() {
        release();
        tooLarge = false;
        if (!reserve(EMPTY_BYTES + (located ? 2L * Long.BYTES * MIN_KEYS : 0))) {
            return false;
        }
        prefixes = new long[MIN_KEYS];
        addresses = new int[MIN_KEYS];
        asidePrefixes = new long[MIN_KEYS];
        asideAddresses = new int[MIN_KEYS];
        asidePositions = new int[MIN_KEYS];
        if (located) {
            locations = new long[MIN_KEYS];
            asideLocations = new long[MIN_KEYS];
        }
        dropped = false;
        return true;
    }

    /** Whether it holds nothing (evicted, out of memory, or never built). */
    boolean isDropped() {
        return dropped;
    }

    /**
     * Whether the last failed reservation would have failed with no other index in memory: the
     * bucket's rows do not fit the limit at all, rather than beside the indexes in use.
     */
    boolean tooLarge() {
        return tooLarge;
    }

    int size() {
        return count - removed + aside;
    }

    /** The memory it reserves from, shared with the other indexes of its table write or read. */
    LookupMemory memory() {
        return memory;
    }

    /** Bytes of memory it holds. */
    long reservedBytes() {
        return reserved;
    }

    /**
     * The current row of the key of {@code row} (a table row), or null if the key has none. The
     * returned row is valid until the next call of any method. Fastest when each call's key is
     * greater than the last call's. REQUIRES: not dropped.
     */
    @Nullable
    BinaryRowData find(RowData row) {
        long prefix = keys.prefix(encoder.binary(row));
        if (notAboveLast(prefix, row)) {
            merge(); // A new pass.
        }
        int at = cursor;
        if (at < count && compare(at, prefix, row) < 0) {
            // Gallop: keys before lo order before the row; from hi on (if any), not.
            int lo = at;
            int step = 1;
            int hi = lo + 1;
            while (hi < count && compare(hi, prefix, row) < 0) {
                lo = hi;
                step <<= 1;
                hi = lo + step;
            }
            hi = Math.min(hi, count);
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (compare(mid, prefix, row) < 0) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            at = hi;
        }
        cursor = at;
        currentIndex = at;
        lastPrefix = prefix;
        current = at < count && compare(at, prefix, row) == 0 ? addresses : null;
        return current != null && addresses[at] > 0 ? rows.rowAt(addresses[at], view) : null;
    }

    /**
     * Makes {@code row} the current row of the key of the last {@link #find}.
     *
     * @return false if the memory for it could not be reserved: the index is dropped
     */
    boolean put(BinaryRowData row) {
        if (current != null && current[currentIndex] > 0) {
            if (rows.replace(current[currentIndex], row)) {
                return true;
            }
            int moved = allocate(row);
            if (moved == 0) {
                return false;
            }
            rows.free(current[currentIndex]);
            current[currentIndex] = moved;
            return true;
        }
        if (current == addresses) {
            // A removed key comes back: its old entry is garbage now.
            int moved = allocate(row);
            if (moved == 0) {
                return false;
            }
            rows.free(-addresses[currentIndex]);
            addresses[currentIndex] = moved;
            removed--;
            return true;
        }
        if (!ensureRoom()) {
            return false;
        }
        int address = allocate(row);
        if (address == 0) {
            return false;
        }
        if (cursor == count && aside == 0) {
            prefixes[count] = lastPrefix;
            addresses[count++] = address;
            current = addresses;
            currentIndex = cursor;
        } else {
            asidePrefixes[aside] = lastPrefix;
            asideAddresses[aside] = address;
            asidePositions[aside] = cursor;
            current = asideAddresses;
            currentIndex = aside++;
        }
        return true;
    }

    /** The location of the key of the last {@link #find}, which found it. REQUIRES: located. */
    long location() {
        return current == addresses ? locations[currentIndex] : asideLocations[currentIndex];
    }

    /**
     * Sets the location of the key of the last {@link #find} or {@link #put}, which made it
     * present. REQUIRES: located.
     */
    void setLocation(long location) {
        if (current == addresses) {
            locations[currentIndex] = location;
        } else {
            asideLocations[currentIndex] = location;
        }
    }

    /** Removes the key of the last {@link #find}, which found it. */
    void remove() {
        if (current == null || current[currentIndex] <= 0) {
            return;
        }
        if (current == addresses) {
            // Its entry stays readable until the next pass: lookups compare keys with it.
            addresses[currentIndex] = -addresses[currentIndex];
            removed++;
        } else {
            // Kept aside by the last put, so the last one kept aside.
            rows.free(asideAddresses[--aside]);
            current = null;
        }
    }

    /** Frees everything; the index is dropped until {@link #reset}. */
    void release() {
        rows.clear();
        prefixes = null;
        addresses = null;
        asidePrefixes = null;
        asideAddresses = null;
        asidePositions = null;
        locations = null;
        asideLocations = null;
        count = 0;
        removed = 0;
        aside = 0;
        cursor = 0;
        current = null;
        dropped = true;
        if (reserved > 0) {
            long bytes = reserved;
            reserved = 0;
            memory.release(bytes);
        }
    }

    /** Called by the memory, under its lock, while this index is not pinned. */
    void evicted() {
        release();
    }

    /**
     * Whether the key of {@code row} may not order after every key passed since the last merge: the
     * keys before the cursor and those kept aside.
     */
    private boolean notAboveLast(long prefix, RowData row) {
        int last = aside - 1;
        return (last >= 0 && compare(asidePrefixes[last], asideAddresses[last], prefix, row) >= 0)
                || (cursor > 0 && compare(cursor - 1, prefix, row) >= 0);
    }

    /** Orders the key at {@code i} of the run against the key of {@code row}. */
    private int compare(int i, long prefix, RowData row) {
        return compare(prefixes[i], addresses[i], prefix, row);
    }

    private int compare(long entryPrefix, int address, long prefix, RowData row) {
        if (entryPrefix != prefix || prefixDecides) {
            return Long.compare(entryPrefix, prefix);
        }
        return keys.compare(rows.rowAt(Math.abs(address), probe), row);
    }

    /**
     * Starts a new pass: drops the removed keys and merges those kept aside in, in place (the
     * arrays hold both since {@link #ensureRoom}).
     */
    private void merge() {
        current = null;
        cursor = 0;
        if (removed > 0) {
            int w = 0;
            int j = 0;
            for (int r = 0; r < count; r++) {
                while (j < aside && asidePositions[j] == r) {
                    asidePositions[j++] = w;
                }
                int address = addresses[r];
                if (address > 0) {
                    prefixes[w] = prefixes[r];
                    if (located) {
                        locations[w] = locations[r];
                    }
                    addresses[w++] = address;
                } else {
                    rows.free(-address);
                }
            }
            while (j < aside) {
                asidePositions[j++] = w;
            }
            count = w;
            removed = 0;
        }
        // From the back: each key kept aside goes before the key at its position.
        int i = count - 1;
        int w = count + aside - 1;
        for (int j = aside - 1; j >= 0; w--) {
            if (i >= asidePositions[j]) {
                prefixes[w] = prefixes[i];
                if (located) {
                    locations[w] = locations[i];
                }
                addresses[w] = addresses[i--];
            } else {
                prefixes[w] = asidePrefixes[j];
                if (located) {
                    locations[w] = asideLocations[j];
                }
                addresses[w] = asideAddresses[j--];
            }
        }
        count += aside;
        aside = 0;
    }

    /** Grows the arrays so that one more key fits both in the run and aside. */
    private boolean ensureRoom() {
        int needed = count + aside + 1;
        if (needed > prefixes.length) {
            int length = Math.max(needed, prefixes.length * 2);
            if (!reserve((long) runBytes() * (length - prefixes.length))) {
                release();
                return false;
            }
            prefixes = Arrays.copyOf(prefixes, length);
            addresses = Arrays.copyOf(addresses, length);
            if (located) {
                locations = Arrays.copyOf(locations, length);
            }
        }
        if (aside == asidePrefixes.length) {
            int length = aside * 2;
            if (!reserve((long) (ASIDE_BYTES + (located ? Long.BYTES : 0)) * aside)) {
                release();
                return false;
            }
            asidePrefixes = Arrays.copyOf(asidePrefixes, length);
            asideAddresses = Arrays.copyOf(asideAddresses, length);
            asidePositions = Arrays.copyOf(asidePositions, length);
            if (located) {
                asideLocations = Arrays.copyOf(asideLocations, length);
            }
        }
        return true;
    }

    private int runBytes() {
        return RUN_BYTES + (located ? Long.BYTES : 0);
    }

    /** A new entry for {@code row}; 0 if out of memory: the index is dropped. */
    private int allocate(BinaryRowData row) {
        int address = rows.allocate(row, live);
        if (address == 0) {
            release();
        }
        return address;
    }

    private boolean reserve(long bytes) {
        if (!memory.reserve(this, bytes)) {
            tooLarge = reserved + bytes > memory.limit();
            return false;
        }
        reserved += bytes;
        return true;
    }

    private void releasePart(long bytes) {
        reserved -= bytes;
        memory.release(bytes);
    }

    /** The entries in use: the run's (removed keys' too, until the next pass) and those aside. */
    private final class Entries implements RowPages.Live {
        @Override
        public int count() {
            return count + aside;
        }

        @Override
        public int address(int i) {
            return i < count ? Math.abs(addresses[i]) : asideAddresses[i - count];
        }

        @Override
        public void moved(int i, int address) {
            if (i < count) {
                addresses[i] = addresses[i] > 0 ? address : -address;
            } else {
                asideAddresses[i - count] = address;
            }
        }
    }
}
