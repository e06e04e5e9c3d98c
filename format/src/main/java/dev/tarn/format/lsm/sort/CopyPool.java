package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.RowCopier;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * Copies of the key values a {@link MergeIterator} holds while it merges one key: reusable byte
 * buffers handed out in order and all taken back by {@link #reset()}, so that copying allocates
 * only a {@link KeyValue} once the pool has grown to the largest group of versions seen.
 */
final class CopyPool {

    private static final class Slot {
        private byte[] bytes = new byte[128];
        private MemorySegment[] segments = {MemorySegmentFactory.wrap(bytes)};
        private final BinaryRowData row;

        private Slot(int arity) {
            this.row = new BinaryRowData(arity);
        }
    }

    private final RowCopier copier;
    private final int arity;
    private final List<Slot> slots = new ArrayList<>();
    private int used;

    CopyPool(KeyComparator keys) {
        this.copier = new RowCopier(keys.rowType());
        this.arity = keys.rowType().getFieldCount();
    }

    /** A copy of {@code kv} valid until the next {@link #reset()}. */
    KeyValue copy(KeyValue kv) {
        int size = copier.prepare(kv.row(), kv.kind());
        if (used == slots.size()) {
            slots.add(new Slot(arity));
        }
        Slot slot = slots.get(used++);
        if (slot.bytes.length < size) {
            slot.bytes = new byte[Math.max(size, 2 * slot.bytes.length)];
            slot.segments = new MemorySegment[] {MemorySegmentFactory.wrap(slot.bytes)};
        }
        copier.writePrepared(slot.bytes, 0);
        slot.row.pointTo(slot.segments, 0, size);
        return new KeyValue(kv.sequence(), kv.kind(), slot.row);
    }

    /** Takes back all copies; REQUIRES: none is used any more. */
    void reset() {
        used = 0;
    }
}
