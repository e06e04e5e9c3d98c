package dev.tarn.format.lsm.lookup;

import dev.tarn.format.row.SegmentBytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The rows of a {@link LookupIndex}: entries {@code [row capacity, row length, row bytes]} in heap
 * pages, each named by an address, a positive int. A row that fits its entry replaces it in place;
 * an entry freed is garbage, which the pages are compacted of, in place, once it is half of them.
 * Each page's memory is reserved from the owner first. Allocation free per row once grown. Not
 * thread-safe. Public for the lookup join's store of a bucket ({@code dev.tarn.format.lookup}),
 * which keeps its rows in the same pages.
 */
public final class RowPages {

    /** Bytes of the first page: a small index stays small. */
    public static final int PAGE_BYTES = 256 * 1024;

    /**
     * Bytes of the largest page: each new page is twice the last, up to this. 4 MiB less a little,
     * so that under G1 a large page is a humongous object that fills its regions whole: it is
     * allocated in the old generation and never copied, where smaller pages of rows that stay live
     * were copied by every young collection while a lookup loaded (a fifth of its time).
     */
    static final int MAX_PAGE_BYTES = (4 << 20) - 64;

    /** An address is {@code (page << OFFSET_BITS | offset / 8) + 1}: 2^19 words make 4 MiB. */
    private static final int OFFSET_BITS = 19;

    /** What an address can point at within a page. */
    private static final int ADDRESSABLE_BYTES = 8 << OFFSET_BITS;

    /** 2^12 pages: up to 16 GB, beyond any limit a writer or lookup sets. */
    private static final int MAX_PAGES = 1 << (31 - OFFSET_BITS);

    /** Entry header: row capacity, row length. */
    private static final int HEADER = 8;

    /** The entries in use, which a compaction moves: their owner's addresses. */
    public interface Live {
        int count();

        int address(int i);

        /** The entry {@code i} now lives at {@code address}. */
        void moved(int i, int address);
    }

    private final LongPredicate reserve;
    private final LongConsumer release;

    /** The pages, each as the one-segment array {@code BinaryRowData.pointTo} takes. */
    private final List<MemorySegment[]> pages = new ArrayList<>();

    private int position;
    private long pageBytes;
    private long garbage;

    /**
     * @param reserve reserves bytes of the owner's memory; false if they are not there
     * @param release gives back bytes reserved before
     */
    public RowPages(LongPredicate reserve, LongConsumer release) {
        this.reserve = reserve;
        this.release = release;
    }

    /** Points {@code target} at the row of the entry at {@code address}. */
    public BinaryRowData rowAt(int address, BinaryRowData target) {
        MemorySegment[] page = pages.get(page(address));
        int offset = offset(address);
        target.pointTo(page, offset + HEADER, page[0].getInt(offset + 4));
        return target;
    }

    /** Writes {@code row} over the entry at {@code address} if it fits; false if it does not. */
    public boolean replace(int address, BinaryRowData row) {
        MemorySegment page = pages.get(page(address))[0];
        int offset = offset(address);
        if (row.getSizeInBytes() > page.getInt(offset)) {
            return false;
        }
        page.putInt(offset + 4, row.getSizeInBytes());
        copy(row, page, offset + HEADER);
        return true;
    }

    /** The entry at {@code address} is no longer used. */
    public void free(int address) {
        garbage += entryBytes(pages.get(page(address))[0].getInt(offset(address)));
    }

    /**
     * Writes a new entry for {@code row}; 0 if its page could not be reserved. May compact the
     * pages first, moving the entries of {@code live}.
     */
    public int allocate(BinaryRowData row, Live live) {
        int length = row.getSizeInBytes();
        int bytes = (int) entryBytes(length);
        if (pages.isEmpty() || !fits(pages.size() - 1, position, bytes)) {
            if (garbage * 2 > pageBytes && garbage >= PAGE_BYTES) {
                compact(live);
            }
            if (pages.isEmpty() || !fits(pages.size() - 1, position, bytes)) {
                int pageSize = Math.max(nextPageBytes(), bytes);
                if (pages.size() >= MAX_PAGES) {
                    return 0;
                }
                if (!reserve.test(pageSize)) {
                    // A tight budget may still hold a first-size page.
                    pageSize = Math.max(PAGE_BYTES, bytes);
                    if (!reserve.test(pageSize)) {
                        return 0;
                    }
                }
                pages.add(new MemorySegment[] {MemorySegmentFactory.wrap(new byte[pageSize])});
                pageBytes += pageSize;
                position = 0;
            }
        }
        int pageIndex = pages.size() - 1;
        MemorySegment page = pages.get(pageIndex)[0];
        int offset = position;
        page.putInt(offset, bytes - HEADER);
        page.putInt(offset + 4, length);
        copy(row, page, offset + HEADER);
        position += bytes;
        return address(pageIndex, offset);
    }

    /** The size of the next page: twice the last one's, from the first size to the largest. */
    private int nextPageBytes() {
        if (pages.isEmpty()) {
            return PAGE_BYTES;
        }
        long last = pages.get(pages.size() - 1)[0].size();
        return (int) Math.min(MAX_PAGE_BYTES, Math.max(PAGE_BYTES, last * 2));
    }

    /** Forgets every page; their memory is the owner's to release. */
    public void clear() {
        pages.clear();
        position = 0;
        pageBytes = 0;
        garbage = 0;
    }

    /** Moves the entries in use to the front of the pages, in address order; frees the rest. */
    private void compact(Live live) {
        long[] order = new long[live.count()];
        for (int i = 0; i < order.length; i++) {
            order[i] = ((long) live.address(i) << 32) | i;
        }
        Arrays.sort(order);
        int target = 0;
        int at = 0;
        for (long e : order) {
            int address = (int) (e >>> 32);
            MemorySegment source = pages.get(page(address))[0];
            int offset = offset(address);
            int bytes = (int) entryBytes(source.getInt(offset));
            // Never past the source: entries move down only, so none is overwritten unread.
            while (!fits(target, at, bytes)) {
                target++;
                at = 0;
            }
            System.arraycopy(source.getArray(), offset, pages.get(target)[0].getArray(), at, bytes);
            live.moved((int) e, address(target, at));
            at += bytes;
        }
        long freed = 0;
        while (pages.size() > target + 1) {
            freed += pages.remove(pages.size() - 1)[0].size();
        }
        pageBytes -= freed;
        position = at;
        garbage = 0;
        release.accept(freed);
    }

    /**
     * Whether an entry of {@code bytes} fits at {@code offset} of a page: anywhere within its first
     * {@link #ADDRESSABLE_BYTES} (what an address can point at), or alone in a larger page of its
     * own.
     */
    private boolean fits(int page, int offset, int bytes) {
        int size = pages.get(page)[0].size();
        return offset == 0 ? bytes <= size : offset + bytes <= Math.min(size, ADDRESSABLE_BYTES);
    }

    private static void copy(BinaryRowData row, MemorySegment page, int offset) {
        SegmentBytes.copy(
                row.getSegments(), row.getOffset(), page.getArray(), offset, row.getSizeInBytes());
    }

    /** Bytes of an entry: header and row capacity, rounded up to 8. */
    private static long entryBytes(int rowCapacity) {
        return (HEADER + rowCapacity + 7L) & ~7L;
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
