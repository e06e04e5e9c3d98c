package dev.tarn.format.lsm;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Rows of one type as Flink binary rows in a buffer that each call reuses, and whether two rows
 * hold the same values: what the lookup changelog's writer and a read that completes upserts keep
 * in their indexes and compare, without allocating per row once the buffers have grown. Not
 * thread-safe.
 */
public final class RowBytes {

    private final RowCopier copier;
    private final RowCopier oldCopier;
    private final BinaryRowData encoded;
    private byte[] bytes = new byte[256];
    private MemorySegment[] segment = {MemorySegmentFactory.wrap(bytes)};
    private byte[] oldBytes = new byte[256];
    private MemorySegment[] oldSegment = {MemorySegmentFactory.wrap(oldBytes)};

    public RowBytes(RowType rowType) {
        this.copier = new RowCopier(rowType);
        this.oldCopier = new RowCopier(rowType);
        this.encoded = new BinaryRowData(rowType.getFieldCount());
    }

    /** A self-contained copy of {@code row}, kind INSERT, valid until the next call. */
    public BinaryRowData encode(RowData row) {
        int size = copier.prepare(row, RowKind.INSERT);
        if (bytes.length < size) {
            bytes = new byte[Math.max(size, 2 * bytes.length)];
            segment = new MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
        }
        copier.writePrepared(bytes, 0);
        encoded.pointTo(segment, 0, size);
        return encoded;
    }

    /**
     * {@code row} as a self-contained binary row: itself if it is one of this type's arity (its row
     * kind byte as it is), else its {@link #encode}. Valid while both are.
     */
    public BinaryRowData binary(RowData row) {
        if (row instanceof BinaryRowData binary && binary.getArity() == encoded.getArity()) {
            return binary;
        }
        return encode(row);
    }

    /**
     * Whether {@code old} holds the values of {@code row} (a binary row of this type): their binary
     * forms but the row kind byte.
     */
    public boolean sameRow(RowData old, BinaryRowData row) {
        int size = row.getSizeInBytes();
        if (old instanceof BinaryRowData binary && binary.getArity() == row.getArity()) {
            return binary.getSizeInBytes() == size
                    && BinarySegmentUtils.equals(
                            binary.getSegments(),
                            binary.getOffset() + 1,
                            row.getSegments(),
                            row.getOffset() + 1,
                            size - 1);
        }
        if (oldCopier.prepare(old, RowKind.INSERT) != size) {
            return false;
        }
        if (oldBytes.length < size) {
            oldBytes = new byte[Math.max(size, 2 * oldBytes.length)];
            oldSegment = new MemorySegment[] {MemorySegmentFactory.wrap(oldBytes)};
        }
        oldCopier.writePrepared(oldBytes, 0);
        return BinarySegmentUtils.equals(
                oldSegment, 1, row.getSegments(), row.getOffset() + 1, size - 1);
    }
}
