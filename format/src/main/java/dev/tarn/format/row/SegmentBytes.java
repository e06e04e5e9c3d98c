package dev.tarn.format.row;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

/** Copies of bytes out of Flink's memory segments, on the paths that copy every row. */
public final class SegmentBytes {

    private SegmentBytes() {}

    /**
     * Copies {@code length} bytes at {@code offset} of {@code segments} to {@code target} from
     * {@code at}: with {@link System#arraycopy} where they lie in one heap segment, else with
     * Flink's copy. Flink's copy goes through the checked copy of {@code Unsafe}, which cost a bulk
     * load of short strings (a lookup's) a third of its time; the array copy is the JIT's own.
     */
    public static void copy(
            MemorySegment[] segments, int offset, byte[] target, int at, int length) {
        MemorySegment first = segments[0];
        if (!first.isOffHeap() && offset + length <= first.size()) {
            System.arraycopy(first.getArray(), offset, target, at, length);
        } else {
            BinarySegmentUtils.copyToBytes(segments, offset, target, at, length);
        }
    }
}
