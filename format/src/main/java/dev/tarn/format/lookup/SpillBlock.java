package dev.tarn.format.lookup;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.types.RowKind;

/**
 * One block of a {@link SpillRun}, decoded: its rows' offsets and first-field prefixes, so that a
 * seek is a binary search over longs and a row is a view of the block's bytes. Immutable once
 * built, so the block cache shares it between scans on any thread.
 */
final class SpillBlock {

    private static final byte TOMBSTONE = RowKind.DELETE.toByteValue();

    private final MemorySegment[] segment;
    private final byte[] data;
    private final int[] offsets;
    private final int[] sizes;
    private final long[] prefixes;

    /** Decodes a block's payload: rows, each {@code [int size][size bytes of a binary row]}. */
    SpillBlock(byte[] data, IndexOrder order) {
        this.data = data;
        this.segment = new MemorySegment[] {MemorySegmentFactory.wrap(data)};
        int n = 0;
        for (int at = 0; at < data.length; at += 4 + segment[0].getIntBigEndian(at)) {
            n++;
        }
        this.offsets = new int[n];
        this.sizes = new int[n];
        this.prefixes = new long[n];
        BinaryRowData view = new BinaryRowData(order.arity());
        int at = 0;
        for (int i = 0; i < n; i++) {
            sizes[i] = segment[0].getIntBigEndian(at);
            offsets[i] = at + 4;
            prefixes[i] = order.prefix(rowAt(i, view));
            at += 4 + sizes[i];
        }
    }

    int rows() {
        return offsets.length;
    }

    BinaryRowData rowAt(int i, BinaryRowData target) {
        target.pointTo(segment, offsets[i], sizes[i]);
        return target;
    }

    long prefix(int i) {
        return prefixes[i];
    }

    boolean tombstone(int i) {
        return data[offsets[i]] == TOMBSTONE;
    }

    /** Bytes it keeps on the heap, for the cache's weight. */
    int weight() {
        return data.length + 16 * offsets.length + 64;
    }
}
