package dev.tarn.format.lsm.sort;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * The record memory of a {@link SortBuffer}: heap pages filled front to back. A record never spans
 * two pages; one larger than a page gets a page of its own size. A record's address is {@code page
 * index << 32 | offset in the page} and stays valid until {@link #reset}. Pages of the standard
 * size are kept across resets so that a buffer refilled after a flush allocates nothing.
 */
final class RecordPages {

    private final int pageSize;
    private final List<byte[]> pages = new ArrayList<>();

    /** Per page a one-element array of its segment, as {@code BinaryRowData.pointTo} wants it. */
    private final List<MemorySegment[]> segments = new ArrayList<>();

    /** Index of the page being filled; -1 before the first record. */
    private int current = -1;

    /** Next free byte in the current page. */
    private int position;

    /** Total size of pages 0..current: the memory this buffer's records occupy. */
    private long usedBytes;

    RecordPages(int pageSize) {
        this.pageSize = pageSize;
    }

    /** The bytes {@link #usedBytes()} grows by if a record of {@code size} is allocated. */
    long growthFor(int size) {
        if (current >= 0 && position + size <= pages.get(current).length) {
            return 0;
        }
        int next = current + 1;
        if (next < pages.size() && pages.get(next).length >= size) {
            return pages.get(next).length;
        }
        return Math.max(pageSize, size);
    }

    /** Reserves {@code size} bytes and returns their address. */
    long allocate(int size) {
        if (current < 0 || position + size > pages.get(current).length) {
            int next = current + 1;
            if (next >= pages.size() || pages.get(next).length < size) {
                byte[] page = new byte[Math.max(pageSize, size)];
                pages.add(next, page);
                segments.add(next, new MemorySegment[] {MemorySegmentFactory.wrap(page)});
            }
            current = next;
            position = 0;
            usedBytes += pages.get(current).length;
        }
        long address = ((long) current << 32) | position;
        position += size;
        return address;
    }

    byte[] page(long address) {
        return pages.get((int) (address >>> 32));
    }

    MemorySegment segment(long address) {
        return segments.get((int) (address >>> 32))[0];
    }

    MemorySegment[] segments(long address) {
        return segments.get((int) (address >>> 32));
    }

    static int offset(long address) {
        return (int) address;
    }

    long usedBytes() {
        return usedBytes;
    }

    /** Forgets all records; keeps standard pages for reuse, drops oversized ones. */
    void reset() {
        for (int i = pages.size() - 1; i >= 0; i--) {
            if (pages.get(i).length != pageSize) {
                pages.remove(i);
                segments.remove(i);
            }
        }
        current = -1;
        position = 0;
        usedBytes = 0;
    }

    /** Forgets all records and frees all pages. */
    void release() {
        reset();
        pages.clear();
        segments.clear();
    }
}
