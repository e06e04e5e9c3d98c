package dev.tarn.format.row;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * Rows in Flink's binary row format, one after another in one buffer that grows and is reused: the
 * form in which a reader hands rows to another thread, so that each row is then copied or
 * serialized as one block of bytes. A columnar read writes a whole batch of rows column by column
 * into it (a Parquet reader's batch); any other row is appended by its writer through {@link
 * #reserve}. Not thread-safe: one thread fills it, then another reads it.
 */
public final class BinaryRowBatch {

    private final int[] offsets;
    private byte[] buffer = new byte[64 * 1024];
    private MemorySegment segment = MemorySegmentFactory.wrap(buffer);
    private int size;

    /**
     * @param capacity rows it holds at most
     */
    public BinaryRowBatch(int capacity) {
        this.offsets = new int[capacity + 1];
    }

    /** Forgets every row; the buffer is kept. */
    public void clear() {
        size = 0;
    }

    public int size() {
        return size;
    }

    /** Rows that still fit. */
    public int remaining() {
        return offsets.length - 1 - size;
    }

    public boolean isFull() {
        return remaining() == 0;
    }

    /**
     * Adds a row of {@code length} bytes that the caller then writes into {@link #buffer} at the
     * returned offset. REQUIRES: {@link #remaining} is not 0.
     */
    public int reserve(int length) {
        int start = offsets[size];
        ensure(start + length);
        offsets[++size] = start + length;
        return start;
    }

    /** The bytes of the rows; replaced when it grows, so take it after {@link #reserve}. */
    public byte[] buffer() {
        return buffer;
    }

    /** Points {@code row} at row {@code i} of the batch. */
    public void pointTo(BinaryRowData row, int i) {
        row.pointTo(segment, offsets[i], offsets[i + 1] - offsets[i]);
    }

    /**
     * Adds {@code count} zeroed rows of the given sizes, for a writer that fills them in place;
     * returns the index of the first. REQUIRES: they fit {@link #remaining}.
     */
    public int reserveZeroed(int[] sizes, int count) {
        int first = size;
        int start = offsets[size];
        int end = start;
        for (int i = 0; i < count; i++) {
            end += sizes[i];
            offsets[first + i + 1] = end;
        }
        ensure(end);
        Arrays.fill(buffer, start, end, (byte) 0);
        size += count;
        return first;
    }

    /** Where row {@code i} starts in {@link #buffer}. */
    public int offset(int i) {
        return offsets[i];
    }

    /** The {@link #buffer}, as a memory segment. */
    public MemorySegment segment() {
        return segment;
    }

    private void ensure(int bytes) {
        if (bytes > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(bytes, 2 * buffer.length));
            segment = MemorySegmentFactory.wrap(buffer);
        }
    }
}
