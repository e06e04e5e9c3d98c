package dev.tarn.format.lsm;

import dev.tarn.format.row.SegmentBytes;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Copies rows of one row type into self-contained {@link BinaryRowData}: the way to keep a row that
 * its producer will reuse. A {@code BinaryRowData} of the same arity is copied byte for byte (it is
 * assumed to be of this row type); any other row is encoded field by field. Not thread-safe: it
 * reuses one encoding buffer.
 */
public final class RowCopier {

    private final BinaryRowEncoder encoder;
    private BinaryRowData preparedBinary;
    private int preparedSize;
    private RowKind preparedKind;

    public RowCopier(RowType rowType) {
        this.encoder = new BinaryRowEncoder(rowType);
    }

    /** A new row holding the values and kind of {@code row}; nothing else references it. */
    public BinaryRowData copy(RowData row) {
        return copy(row, row.getRowKind());
    }

    /** A key value whose row is a {@link #copy(RowData)} of the given one's, of its kind. */
    public KeyValue copy(KeyValue kv) {
        return new KeyValue(kv.sequence(), kv.kind(), copy(kv.row(), kv.kind()));
    }

    private BinaryRowData copy(RowData row, RowKind kind) {
        int size = prepare(row, kind);
        byte[] bytes = new byte[size];
        writePrepared(bytes, 0);
        BinaryRowData copy = new BinaryRowData(encoder.arity());
        copy.pointTo(MemorySegmentFactory.wrap(bytes), 0, size);
        return copy;
    }

    /**
     * First half of a copy into memory owned by the caller: returns the size in bytes of the row's
     * binary form with {@code kind} in its header. {@link #writePrepared} then writes it.
     */
    public int prepare(RowData row, RowKind kind) {
        preparedKind = kind;
        if (row instanceof BinaryRowData binary && binary.getArity() == encoder.arity()) {
            preparedBinary = binary;
            preparedSize = binary.getSizeInBytes();
        } else {
            preparedBinary = null;
            preparedSize = encoder.encode(row, kind);
        }
        return preparedSize;
    }

    /** Writes the row of the last {@link #prepare} at {@code offset}; the target must fit it. */
    public void writePrepared(byte[] target, int offset) {
        if (preparedBinary == null) {
            System.arraycopy(encoder.buffer(), 0, target, offset, preparedSize);
        } else {
            SegmentBytes.copy(
                    preparedBinary.getSegments(),
                    preparedBinary.getOffset(),
                    target,
                    offset,
                    preparedSize);
            target[offset] = preparedKind.toByteValue();
        }
    }
}
