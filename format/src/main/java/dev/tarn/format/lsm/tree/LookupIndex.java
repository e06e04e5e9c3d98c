package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.KeyValueSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

/**
 * The current row of every key of one bucket, in memory, for the {@code lookup} changelog producer:
 * an open-addressing hash table (linear probing) from a key's bytes to an entry {@code [key length,
 * row capacity, row length, key bytes, row bytes]} in heap pages. A row that fits its entry is
 * replaced in place; otherwise it moves to a new entry and the old one is garbage, which the pages
 * are compacted of, in place, once it is half of them. Allocation free per row once grown.
 *
 * <p>Memory is reserved from {@link LookupMemory} before it is allocated. When a reservation fails
 * the call returns false and the index is {@linkplain #isDropped dropped}: it holds nothing, and
 * its owner rebuilds it or does without. The memory may also evict it while it is not pinned. Not
 * thread-safe otherwise: its bucket's writer (or the flush thread it waits for) uses it.
 */
final class LookupIndex {

    /** Bytes of a page: large enough to hold many rows, small enough for the garbage collector. */
    static final int PAGE_BYTES = 256 * 1024;

    /** An address is {@code (page << OFFSET_BITS | offset / 8) + 1}: 2^15 words make a page. */
    private static final int OFFSET_BITS = 15;

    /** 2^16 pages of 256 KB: 16 GB, beyond any limit a writer task sets. */
    private static final int MAX_PAGES = 1 << (31 - OFFSET_BITS);

    /** Entry header: key length, row capacity, row length. */
    private static final int HEADER = 12;

    private static final int MIN_SLOTS = 1024;

    private final LookupMemory memory;
    private final KeyValueSchema.LastKey key;
    private final BinaryRowData view;

    /** The pages, each as the one-segment array {@code BinaryRowData.pointTo} takes. */
    private final List<MemorySegment[]> pages = new ArrayList<>();

    private int position;

    /** Per slot {@code hash << 32 | address}, 0 where empty: one array, one cache miss. */
    private long[] slots;

    private int size;
    private long pageBytes;
    private long garbage;
    private long reserved;
    private boolean dropped;
    private boolean tooLarge;

    /** Slot of the key of the last {@link #find}, or the empty slot where it would go. */
    private int slot;

    private boolean found;
    private int foundHash;

    LookupIndex(KeyValueSchema schema, LookupMemory memory) {
        this.memory = memory;
        this.key = schema.newLastKey();
        this.view = new BinaryRowData(schema.tableType().getFieldCount());
        this.dropped = true;
    }

    /** Starts empty; false (and dropped) if not even the empty table fits in the memory. */
    boolean reset() {
        release();
        tooLarge = false;
        if (!reserve((long) Long.BYTES * MIN_SLOTS)) {
            return false;
        }
        slots = new long[MIN_SLOTS];
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
        return size;
    }

    /** Bytes of memory it holds. */
    long reservedBytes() {
        return reserved;
    }

    /**
     * The current row of the key of {@code row} (a table row), or null if the key has none. The
     * returned row is valid until the next call of any method. REQUIRES: not dropped.
     */
    @Nullable
    BinaryRowData find(RowData row) {
        key.set(row);
        int h = key.hash();
        int mask = slots.length - 1;
        int i = h & mask;
        long entry;
        while ((entry = slots[i]) != 0) {
            if ((int) (entry >>> 32) == h && keyAt((int) entry)) {
                slot = i;
                found = true;
                return rowAt((int) entry);
            }
            i = (i + 1) & mask;
        }
        slot = i;
        found = false;
        foundHash = h;
        return null;
    }

    /**
     * Makes {@code row} the current row of the key of the last {@link #find}.
     *
     * @return false if the memory for it could not be reserved: the index is dropped
     */
    boolean put(BinaryRowData row) {
        int length = row.getSizeInBytes();
        if (found) {
            int address = (int) slots[slot];
            MemorySegment page = pages.get(page(address))[0];
            int offset = offset(address);
            if (length <= page.getInt(offset + 4)) {
                int keyLength = page.getInt(offset);
                page.putInt(offset + 8, length);
                copy(row, page, offset + HEADER + keyLength);
                return true;
            }
            long old = entryBytes(page.getInt(offset), page.getInt(offset + 4));
            int moved = allocate(row);
            if (moved == 0) {
                return false;
            }
            garbage += old;
            slots[slot] = (slots[slot] & 0xFFFFFFFF00000000L) | (moved & 0xFFFFFFFFL);
            return true;
        }
        if ((size + 1) * 4L > slots.length * 3L) {
            if (!grow()) {
                return false;
            }
            slot = emptySlot(foundHash);
        }
        int address = allocate(row);
        if (address == 0) {
            return false;
        }
        slots[slot] = ((long) foundHash << 32) | (address & 0xFFFFFFFFL);
        size++;
        found = true;
        return true;
    }

    /** Removes the key of the last {@link #find}, which found it. */
    void remove() {
        if (!found) {
            return;
        }
        MemorySegment page = pages.get(page((int) slots[slot]))[0];
        int offset = offset((int) slots[slot]);
        garbage += entryBytes(page.getInt(offset), page.getInt(offset + 4));
        // Backward-shift deletion: no tombstones, so probe sequences stay short.
        int mask = slots.length - 1;
        int hole = slot;
        for (int i = (hole + 1) & mask; slots[i] != 0; i = (i + 1) & mask) {
            int home = (int) (slots[i] >>> 32) & mask;
            boolean stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!stays) {
                slots[hole] = slots[i];
                hole = i;
            }
        }
        slots[hole] = 0;
        size--;
        found = false;
    }

    /** Frees everything; the index is dropped until {@link #reset}. */
    void release() {
        pages.clear();
        slots = null;
        size = 0;
        position = 0;
        pageBytes = 0;
        garbage = 0;
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

    private boolean keyAt(int address) {
        MemorySegment page = pages.get(page(address))[0];
        int offset = offset(address);
        return key.equalsBytes(page.getArray(), offset + HEADER, page.getInt(offset));
    }

    private BinaryRowData rowAt(int address) {
        MemorySegment[] page = pages.get(page(address));
        int offset = offset(address);
        int keyLength = page[0].getInt(offset);
        view.pointTo(page, offset + HEADER + keyLength, page[0].getInt(offset + 8));
        return view;
    }

    /** Writes a new entry for the last key found and {@code row}; 0 if out of memory. */
    private int allocate(BinaryRowData row) {
        int length = row.getSizeInBytes();
        int bytes = (int) entryBytes(key.size(), length);
        if (pages.isEmpty() || !fits(pages.size() - 1, position, bytes)) {
            if (garbage * 2 > pageBytes && garbage >= PAGE_BYTES) {
                compact();
            }
            if (pages.isEmpty() || !fits(pages.size() - 1, position, bytes)) {
                int pageSize = Math.max(PAGE_BYTES, bytes);
                if (pages.size() >= MAX_PAGES || !reserve(pageSize)) {
                    release();
                    return 0;
                }
                pages.add(new MemorySegment[] {MemorySegmentFactory.wrap(new byte[pageSize])});
                pageBytes += pageSize;
                position = 0;
            }
        }
        int pageIndex = pages.size() - 1;
        MemorySegment page = pages.get(pageIndex)[0];
        int offset = position;
        page.putInt(offset, key.size());
        page.putInt(offset + 4, bytes - HEADER - key.size());
        page.putInt(offset + 8, length);
        key.copyTo(page.getArray(), offset + HEADER);
        copy(row, page, offset + HEADER + key.size());
        position += bytes;
        return address(pageIndex, offset);
    }

    /** Moves the live entries to the front of the pages, in address order, and frees the rest. */
    private void compact() {
        long[] order = new long[size];
        int n = 0;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0) {
                order[n++] = ((long) (int) slots[i] << 32) | i;
            }
        }
        Arrays.sort(order, 0, n);
        int target = 0;
        int at = 0;
        for (int e = 0; e < n; e++) {
            int address = (int) (order[e] >>> 32);
            MemorySegment source = pages.get(page(address))[0];
            int offset = offset(address);
            int bytes = (int) entryBytes(source.getInt(offset), source.getInt(offset + 4));
            // Never past the source: entries move down only, so none is overwritten unread.
            while (!fits(target, at, bytes)) {
                target++;
                at = 0;
            }
            System.arraycopy(source.getArray(), offset, pages.get(target)[0].getArray(), at, bytes);
            int s = (int) order[e];
            slots[s] = (slots[s] & 0xFFFFFFFF00000000L) | (address(target, at) & 0xFFFFFFFFL);
            at += bytes;
        }
        long freed = 0;
        while (pages.size() > target + 1) {
            freed += pages.remove(pages.size() - 1)[0].size();
        }
        pageBytes -= freed;
        position = at;
        garbage = 0;
        reserved -= freed;
        memory.release(freed);
    }

    private boolean grow() {
        long[] old = slots;
        if (!reserve((long) Long.BYTES * old.length * 2)) {
            release();
            return false;
        }
        slots = new long[old.length * 2];
        for (long entry : old) {
            if (entry != 0) {
                slots[emptySlot((int) (entry >>> 32))] = entry;
            }
        }
        long freed = (long) Long.BYTES * old.length;
        reserved -= freed;
        memory.release(freed);
        return true;
    }

    /**
     * Whether an entry of {@code bytes} fits at {@code offset} of a page: anywhere within the first
     * {@link #PAGE_BYTES} (what an address can point at), or alone in a larger page of its own.
     */
    private boolean fits(int page, int offset, int bytes) {
        int size = pages.get(page)[0].size();
        return offset == 0 ? bytes <= size : offset + bytes <= Math.min(size, PAGE_BYTES);
    }

    private static void copy(BinaryRowData row, MemorySegment page, int offset) {
        BinarySegmentUtils.copyToBytes(
                row.getSegments(), row.getOffset(), page.getArray(), offset, row.getSizeInBytes());
    }

    private int emptySlot(int hash) {
        int mask = slots.length - 1;
        int i = hash & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private boolean reserve(long bytes) {
        if (!memory.reserve(this, bytes)) {
            tooLarge = reserved + bytes > memory.limit();
            return false;
        }
        reserved += bytes;
        return true;
    }

    /** Bytes of an entry: header, key and row capacity, rounded up to 8. */
    private static long entryBytes(int keyLength, int rowBytes) {
        return (HEADER + keyLength + rowBytes + 7L) & ~7L;
    }

    private static int address(int page, int offset) {
        return ((page << OFFSET_BITS) | (offset >>> 3)) + 1;
    }

    private static int page(int address) {
        return (address - 1) >>> OFFSET_BITS;
    }

    private static int offset(int address) {
        return ((address - 1) & ((1 << OFFSET_BITS) - 1)) << 3;
    }
}
