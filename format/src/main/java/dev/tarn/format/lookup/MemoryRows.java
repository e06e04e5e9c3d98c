package dev.tarn.format.lookup;

import dev.tarn.format.lsm.lookup.RowPages;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The in-memory part of a {@link SpillingBucketStore}: rows in {@link RowPages}, ordered by two
 * sorted runs of (normalized prefix, address) pairs, as the writer's {@code LookupIndex} keeps
 * them. The base run is large; new keys go to a small run kept aside (an insertion moves at most
 * {@link #asideLimit} entries) and are merged into the base when it is full, so a put of a new key
 * costs amortized {@code O(base / asideLimit)} moved bytes; a key after every key held (a bucket's
 * load, whose rows come in key order) is appended to the base at once. A get of a whole index key
 * probes a hash index of the base ({@link KeyHashIndex}, built anew at each merge), then
 * binary-searches the small run aside; a prefix scan binary-searches both. A key is in at most one
 * of the two runs.
 *
 * <p>An address is positive for a row, negated for a tombstone: a removed key whose row may still
 * lie in an older spilled run, kept with its key row until the next spill. Without older runs
 * ({@link #keepTombstones} false) tombstones are dropped at the next merge.
 *
 * <p>Memory (pages and arrays) is reserved before it is allocated; a mutation that cannot reserve
 * returns false and changes nothing. Not thread-safe: reads may run concurrently with each other
 * (they pass their own {@code probe} rows), never with a mutation. Just over 400 lines: the two
 * runs, their merge, the pages' moves and the scan cursor all work on the same private arrays.
 */
final class MemoryRows {

    private static final int MIN_ENTRIES = 256;

    /** Bytes of an entry of a run: prefix, address and hash. */
    static final int ENTRY_BYTES = Long.BYTES + 2 * Integer.BYTES;

    /** Base entries from which a hash index pays: below, a binary search stays in cache. */
    static final int INDEX_MIN_ENTRIES = 1024;

    /** What {@link #findIndexed} returns where the base has no hash index. */
    static final int NOT_INDEXED = Integer.MIN_VALUE;

    private final IndexOrder order;
    private final LongPredicate reserve;
    private final LongConsumer release;
    private final RowPages pages;
    private final BinaryRowData probe;
    private final BinaryRowData other;

    private long[] prefixes = new long[0];
    private int[] addresses = new int[0];
    private int count;

    /** The index-key hash of each base entry ({@link IndexOrder#hash}). */
    private int[] hashes = new int[0];

    /**
     * Finds base entries by hash; null until a get needs it after the base changed, while the base
     * is small, or when memory was short. Built by the first get that finds it missing (so loading
     * a bucket, merge after merge, builds none), under this object's monitor.
     */
    @Nullable private volatile KeyHashIndex index;

    private long indexBytes;

    /** Whether the memory for an index of the current base was refused: gets binary-search. */
    private boolean indexRefused;

    private long[] asidePrefixes = new long[0];
    private int[] asideHashes = new int[0];
    private int[] asideAddresses = new int[0];
    private int aside;

    private boolean keepTombstones;

    /** Entries of both runs that are tombstones. */
    private int tombstones;

    /**
     * @param reserve reserves bytes of the budget for this store; false if they are not there
     * @param release gives back bytes reserved before
     */
    MemoryRows(IndexOrder order, LongPredicate reserve, LongConsumer release) {
        this.order = order;
        this.reserve = reserve;
        this.release = release;
        this.pages = new RowPages(reserve, release);
        this.probe = new BinaryRowData(order.arity());
        this.other = new BinaryRowData(order.arity());
    }

    /** Whether removed keys must be kept as tombstones: older rows may lie on disk. */
    void keepTombstones(boolean keep) {
        this.keepTombstones = keep;
    }

    /** Entries of both runs, tombstones included. */
    int entries() {
        return count + aside;
    }

    /**
     * Makes {@code row} (prefix {@code prefix}) the row of its index key.
     *
     * @return false, changing nothing, if the memory for it could not be reserved
     */
    boolean put(BinaryRowData row, long prefix) {
        if (aside == 0
                && (count == 0
                        || order.compare(
                                        prefixes[count - 1],
                                        rowAt(addresses[count - 1], probe),
                                        prefix,
                                        row,
                                        order.fields())
                                < 0)) {
            // After every key held (a bucket's load reads its rows in key order): append.
            return append(row, prefix);
        }
        int at = inBase(prefix, row, probe);
        if (at >= 0) {
            return replace(addresses, at, row);
        }
        int asideAt = search(asidePrefixes, asideAddresses, aside, prefix, row, probe);
        if (asideAt >= 0) {
            return replace(asideAddresses, asideAt, row);
        }
        return insert(prefix, row, -asideAt - 1, true);
    }

    /**
     * Removes the row of the index key of {@code key} (a binary row of the store's type, prefix
     * {@code prefix}); keeps a tombstone if {@link #keepTombstones}.
     *
     * @return false, changing nothing, if the memory for the tombstone could not be reserved
     */
    boolean remove(BinaryRowData key, long prefix) {
        int at = inBase(prefix, key, probe);
        if (at >= 0) {
            tombstones += addresses[at] > 0 ? 1 : 0;
            setAddress(addresses, at, -Math.abs(addresses[at]));
            return true;
        }
        int asideAt = search(asidePrefixes, asideAddresses, aside, prefix, key, probe);
        if (asideAt >= 0) {
            tombstones += asideAddresses[asideAt] > 0 ? 1 : 0;
            asideAddresses[asideAt] = -Math.abs(asideAddresses[asideAt]);
            return true;
        }
        return !keepTombstones || insert(prefix, key, -asideAt - 1, false);
    }

    /**
     * The entry of the index key of {@code key}: its address (negative for a tombstone), or 0 if
     * memory has none. {@code probe} is the caller's, pointed at entries while searching.
     */
    int find(RowData key, long prefix, BinaryRowData probe) {
        if (index == null && count >= INDEX_MIN_ENTRIES) {
            indexBase();
        }
        KeyHashIndex byHash = index;
        if (byHash != null) {
            int address = byHash(byHash, key, probe);
            if (address != 0) {
                return address;
            }
        } else {
            int at = inBase(prefix, key, probe);
            if (at >= 0) {
                return addresses[at];
            }
        }
        int at = search(asidePrefixes, asideAddresses, aside, prefix, key, probe);
        return at >= 0 ? asideAddresses[at] : 0;
    }

    /**
     * The entry of the index key of {@code key} in the base run, found by hash alone, so {@code
     * key} may be any row whose index-key fields hold the key (a view of a join's key row; no
     * prefix, no encoding): its address (negative for a tombstone), 0 if the base has none, or
     * {@link #NOT_INDEXED} if the base has no hash index (small, or memory was short).
     */
    int findIndexed(RowData key, BinaryRowData probe) {
        if (index == null && count >= INDEX_MIN_ENTRIES) {
            indexBase();
        }
        KeyHashIndex byHash = index;
        if (byHash == null) {
            return NOT_INDEXED;
        }
        return byHash(byHash, key, probe);
    }

    /** Whether the small run aside holds entries: a key absent from the base may be there. */
    boolean hasAside() {
        return aside > 0;
    }

    /** Points {@code target} at the row (or tombstone key) of an address {@link #find} gave. */
    BinaryRowData rowAt(int address, BinaryRowData target) {
        return pages.rowAt(Math.abs(address), target);
    }

    /**
     * A cursor over the entries whose first {@code fields} index-key fields equal {@code key}'s.
     */
    RunCursor cursor(RowData key, long prefix, int fields, boolean base) {
        long[] p = base ? prefixes : asidePrefixes;
        int[] a = base ? addresses : asideAddresses;
        int n = base ? count : aside;
        BinaryRowData view = new BinaryRowData(order.arity());
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(p[mid], rowAt(a[mid], view), prefix, key, fields) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return new MemoryCursor(p, a, lo, n, key, prefix, fields, view);
    }

    /** Calls {@code out} with every entry's address in index-key order, both runs merged. */
    void forEachInOrder(java.util.function.IntConsumer out) {
        int i = 0;
        int j = 0;
        while (i < count || j < aside) {
            boolean fromBase =
                    j == aside
                            || (i < count
                                    && order.compare(
                                                    prefixes[i],
                                                    rowAt(addresses[i], probe),
                                                    asidePrefixes[j],
                                                    rowAt(asideAddresses[j], other),
                                                    order.fields())
                                            < 0);
            out.accept(fromBase ? addresses[i++] : asideAddresses[j++]);
        }
    }

    /** Drops everything it holds; what it reserved is its owner's to release. */
    void clear() {
        pages.clear();
        prefixes = new long[0];
        addresses = new int[0];
        asidePrefixes = new long[0];
        asideAddresses = new int[0];
        hashes = new int[0];
        asideHashes = new int[0];
        index = null;
        indexBytes = 0;
        indexRefused = false;
        count = 0;
        aside = 0;
        tombstones = 0;
    }

    private boolean replace(int[] runAddresses, int at, BinaryRowData row) {
        int old = Math.abs(runAddresses[at]);
        boolean revived = runAddresses[at] < 0;
        if (pages.replace(old, row)) {
            setAddress(runAddresses, at, old);
            tombstones -= revived ? 1 : 0;
            return true;
        }
        int moved = pages.allocate(row, live);
        if (moved == 0) {
            return false;
        }
        tombstones -= revived ? 1 : 0;
        // The allocation may have compacted the pages: read the old address again.
        pages.free(Math.abs(runAddresses[at]));
        setAddress(runAddresses, at, moved);
        return true;
    }

    /**
     * Sets the address of entry {@code at} of a run, and the base's in its hash index. Under the
     * owner's exclusive lock.
     */
    private void setAddress(int[] runAddresses, int at, int address) {
        KeyHashIndex byHash = index;
        if (runAddresses == addresses && byHash != null && runAddresses[at] != address) {
            byHash.readdress(hashes[at], runAddresses[at], address);
        }
        runAddresses[at] = address;
    }

    /** Appends a live entry to the base run, whose keys all order before it; none aside. */
    private boolean append(BinaryRowData row, long prefix) {
        if (count == prefixes.length) {
            int length = Math.max(MIN_ENTRIES, count + count / 2);
            if (!grow(length - count)) {
                return false;
            }
            prefixes = Arrays.copyOf(prefixes, length);
            addresses = Arrays.copyOf(addresses, length);
            hashes = Arrays.copyOf(hashes, length);
        }
        int address = pages.allocate(row, live);
        if (address == 0) {
            return false;
        }
        prefixes[count] = prefix;
        hashes[count] = order.hash(row);
        addresses[count] = address;
        count++;
        dropIndex();
        return true;
    }

    /** Inserts a new entry at {@code at} of the run kept aside, merging that run first if full. */
    private boolean insert(long prefix, BinaryRowData row, int at, boolean live) {
        if (aside == asideLimit()) {
            if (!mergeAside()) {
                return false;
            }
            at = -search(asidePrefixes, asideAddresses, aside, prefix, row, probe) - 1;
        }
        if (aside == asidePrefixes.length) {
            int length = Math.min(asideLimit(), Math.max(MIN_ENTRIES, 2 * aside));
            if (!grow(length - asidePrefixes.length)) {
                return false;
            }
            asidePrefixes = Arrays.copyOf(asidePrefixes, length);
            asideAddresses = Arrays.copyOf(asideAddresses, length);
            asideHashes = Arrays.copyOf(asideHashes, length);
        }
        int hash = order.hash(row);
        int address = pages.allocate(row, this.live);
        if (address == 0) {
            return false;
        }
        System.arraycopy(asidePrefixes, at, asidePrefixes, at + 1, aside - at);
        System.arraycopy(asideAddresses, at, asideAddresses, at + 1, aside - at);
        System.arraycopy(asideHashes, at, asideHashes, at + 1, aside - at);
        asidePrefixes[at] = prefix;
        asideHashes[at] = hash;
        asideAddresses[at] = live ? address : -address;
        tombstones += live ? 0 : 1;
        aside++;
        return true;
    }

    /** The most entries kept aside: about twice the square root of the base, within bounds. */
    private int asideLimit() {
        return (int) Math.min(8192, Math.max(MIN_ENTRIES, 2 * Math.sqrt(count)));
    }

    /**
     * Merges the run kept aside into the base, from the back, in place; drops tombstones unless
     * they are kept. False, changing nothing, if the base could not grow.
     */
    private boolean mergeAside() {
        int needed = count + aside;
        if (needed > prefixes.length) {
            int length = Math.max(needed, prefixes.length + prefixes.length / 2);
            if (!grow(length - prefixes.length)) {
                return false;
            }
            prefixes = Arrays.copyOf(prefixes, length);
            addresses = Arrays.copyOf(addresses, length);
            hashes = Arrays.copyOf(hashes, length);
        }
        // From the back: each key kept aside finds its place in the base by a binary search, and
        // the base entries after it move as one block.
        int i = count; // base entries [0, i) are not moved yet
        int w = count + aside;
        for (int j = aside - 1; j >= 0; j--) {
            int at = lowerBound(asidePrefixes[j], rowAt(asideAddresses[j], other), i);
            int moved = i - at;
            w -= moved;
            System.arraycopy(prefixes, at, prefixes, w, moved);
            System.arraycopy(addresses, at, addresses, w, moved);
            System.arraycopy(hashes, at, hashes, w, moved);
            i = at;
            w--;
            prefixes[w] = asidePrefixes[j];
            addresses[w] = asideAddresses[j];
            hashes[w] = asideHashes[j];
        }
        count += aside;
        aside = 0;
        if (!keepTombstones && tombstones > 0) {
            int kept = 0;
            for (int r = 0; r < count; r++) {
                if (addresses[r] > 0) {
                    prefixes[kept] = prefixes[r];
                    hashes[kept] = hashes[r];
                    addresses[kept++] = addresses[r];
                } else {
                    pages.free(-addresses[r]);
                }
            }
            count = kept;
            tombstones = 0;
        }
        dropIndex();
        return true;
    }

    /** Drops the hash index: the base's positions changed. Under the owner's exclusive lock. */
    private void dropIndex() {
        if (index != null) {
            index = null;
            release.accept(indexBytes);
            indexBytes = 0;
        }
        indexRefused = false;
    }

    /**
     * Indexes the base run by hash if the memory is there; without it, gets binary-search the run.
     * Called by gets, which run concurrently with each other but never with a mutation: the first
     * builds the index, the others wait for it.
     */
    private synchronized void indexBase() {
        if (index == null && !indexRefused) {
            long bytes = KeyHashIndex.bytes(count);
            if (reserve.test(bytes)) {
                indexBytes = bytes;
                index = KeyHashIndex.build(hashes, addresses, count);
            } else {
                indexRefused = true;
            }
        }
    }

    /**
     * The position of the entry of the index key of {@code key} in the base run, or negative: a
     * binary search, for mutations, which need the position (gets ask the hash index).
     */
    private int inBase(long prefix, RowData key, BinaryRowData probeRow) {
        return search(prefixes, addresses, count, prefix, key, probeRow);
    }

    /**
     * The address of the base entry of the index key of {@code key}, found by its hash: 0 if none.
     */
    private int byHash(KeyHashIndex byHash, RowData key, BinaryRowData probeRow) {
        int hash = order.hash(key);
        int fields = order.fields();
        for (int slot = byHash.first(hash); ; slot = byHash.next(slot)) {
            int address = byHash.address(slot, hash);
            if (address == 0) {
                return 0;
            }
            // The hash matched: the row decides (reading its prefix would cost a cache miss more).
            if (address != KeyHashIndex.OTHER_HASH
                    && order.compare(rowAt(address, probeRow), key, fields) == 0) {
                return address;
            }
        }
    }

    private boolean grow(int entries) {
        long bytes = (long) ENTRY_BYTES * entries;
        return reserve.test(bytes);
    }

    /** The first base entry among the first {@code n} that does not order before the row. */
    private int lowerBound(long prefix, BinaryRowData row, int n) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(
                            prefixes[mid],
                            rowAt(addresses[mid], probe),
                            prefix,
                            row,
                            order.fields())
                    < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The index of the key of {@code key} in a run, or {@code -(insertion point) - 1}. */
    private int search(long[] p, int[] a, int n, long prefix, RowData key, BinaryRowData probeRow) {
        int lo = 0;
        int hi = n - 1;
        int fields = order.fields();
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = order.compare(p[mid], rowAt(a[mid], probeRow), prefix, key, fields);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private final RowPages.Live live =
            new RowPages.Live() {
                @Override
                public int count() {
                    return count + aside;
                }

                @Override
                public int address(int i) {
                    return Math.abs(i < count ? addresses[i] : asideAddresses[i - count]);
                }

                @Override
                public void moved(int i, int address) {
                    if (i < count) {
                        setAddress(addresses, i, addresses[i] > 0 ? address : -address);
                    } else {
                        int k = i - count;
                        asideAddresses[k] = asideAddresses[k] > 0 ? address : -address;
                    }
                }
            };

    /** Walks a run of memory from a lower bound while the entries match the key. */
    private final class MemoryCursor implements RunCursor {
        private final long[] p;
        private final int[] a;
        private final int n;
        private final RowData key;
        private final long prefix;
        private final int fields;
        private final BinaryRowData view;
        private int at;

        MemoryCursor(
                long[] p,
                int[] a,
                int at,
                int n,
                RowData key,
                long prefix,
                int fields,
                BinaryRowData view) {
            this.p = p;
            this.a = a;
            this.at = at;
            this.n = n;
            this.key = key;
            this.prefix = prefix;
            this.fields = fields;
            this.view = view;
        }

        @Override
        public boolean valid() {
            return at < n && order.compare(p[at], rowAt(a[at], view), prefix, key, fields) == 0;
        }

        @Override
        public BinaryRowData row() {
            return rowAt(a[at], view);
        }

        @Override
        public long prefix() {
            return p[at];
        }

        @Override
        public boolean tombstone() {
            return a[at] < 0;
        }

        @Override
        public void next() {
            at++;
        }
    }
}
