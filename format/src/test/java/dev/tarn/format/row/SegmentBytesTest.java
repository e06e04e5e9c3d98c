package dev.tarn.format.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.junit.jupiter.api.Test;

/** Copies out of one heap segment, across segments, and out of off-heap memory. */
class SegmentBytesTest {

    private static final byte[] TEXT = "lookup-join-row".getBytes(StandardCharsets.US_ASCII);

    private static String copied(MemorySegment[] segments, int offset, int length) {
        byte[] target = new byte[length + 2];
        SegmentBytes.copy(segments, offset, target, 1, length);
        assertThat(target[0]).as("nothing before the copy").isZero();
        assertThat(target[length + 1]).as("nothing after the copy").isZero();
        return new String(target, 1, length, StandardCharsets.US_ASCII);
    }

    @Test
    void copiesFromOneHeapSegmentAcrossSegmentsAndOffHeap() {
        MemorySegment heap = MemorySegmentFactory.wrap(TEXT.clone());
        assertThat(copied(new MemorySegment[] {heap}, 7, 4)).isEqualTo("join");

        MemorySegment first =
                MemorySegmentFactory.wrap("lookup-j".getBytes(StandardCharsets.US_ASCII));
        MemorySegment second =
                MemorySegmentFactory.wrap("oin-row".getBytes(StandardCharsets.US_ASCII));
        assertThat(copied(new MemorySegment[] {first, second}, 7, 6)).isEqualTo("join-r");

        MemorySegment offHeap = MemorySegmentFactory.allocateUnpooledOffHeapMemory(TEXT.length);
        offHeap.put(0, TEXT);
        assertThat(copied(new MemorySegment[] {offHeap}, 12, 3)).isEqualTo("row");
        offHeap.free();
    }
}
