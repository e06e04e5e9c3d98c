package dev.tarn.format.parquet.read;

import dev.tarn.format.row.BinaryRowBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Writes rows of a decoded batch of flat columns as Flink binary rows, column by column: first the
 * size of every row (its fixed part plus the strings and binaries longer than 7 bytes), then, per
 * column, one loop over the rows that sets null bits or writes the slot (and the variable part).
 * Each loop touches one vector and one type, with no per-value call through a row; the layout is
 * Flink's {@code BinaryRowWriter}'s, so the rows equal those Flink writes. Rows are INSERTs.
 */
final class BinaryTransposer {

    private final Column[] columns;
    private final Column[] variable;
    private final int fixedBytes;
    private int[] sizes = new int[0];
    private int[] starts = new int[0];
    private int[] cursors = new int[0];

    private BinaryTransposer(Column[] columns, int arity) {
        this.columns = columns;
        List<Column> withVariablePart = new ArrayList<>();
        for (Column column : columns) {
            if (column.variable()) {
                withVariablePart.add(column);
            }
        }
        this.variable = withVariablePart.toArray(new Column[0]);
        this.fixedBytes = BinaryRowData.calculateBitSetWidthInBytes(arity) + 8 * arity;
    }

    /**
     * A transposer of the vectors of {@code type}'s columns, or null if a column has a type or
     * vector it does not write (or the machine is big-endian): such batches go row by row.
     *
     * @param bytes per column, its reader if the column holds strings or binaries, else null
     */
    @Nullable
    static BinaryTransposer of(RowType type, ColumnVector[] vectors, BytesColumnReader[] bytes) {
        if (!BinaryRowData.LITTLE_ENDIAN) {
            return null;
        }
        int arity = type.getFieldCount();
        int nullBits = BinaryRowData.calculateBitSetWidthInBytes(arity);
        Column[] columns = new Column[arity];
        for (int pos = 0; pos < arity; pos++) {
            columns[pos] = column(type.getTypeAt(pos), vectors[pos], bytes[pos], pos, nullBits);
            if (columns[pos] == null) {
                return null;
            }
        }
        return new BinaryTransposer(columns, arity);
    }

    @Nullable
    private static Column column(
            LogicalType type,
            ColumnVector vector,
            @Nullable BytesColumnReader bytes,
            int pos,
            int nullBits) {
        int slot = nullBits + 8 * pos;
        LogicalTypeRoot root = type.getTypeRoot();
        if (vector instanceof RawVectors.Nulls nulls) {
            return new NullColumn(pos, slot, nulls);
        }
        if (bytes != null && root != LogicalTypeRoot.DECIMAL) {
            return new BytesColumn(pos, slot, (AbstractHeapVector) vector, bytes);
        }
        return switch (root) {
            case BOOLEAN ->
                    vector instanceof HeapBooleanVector v
                            ? new Fixed(
                                    pos, slot, v, (s, at, r) -> s.putBoolean(at, v.getBoolean(r)))
                            : null;
            case TINYINT ->
                    vector instanceof HeapByteVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.put(at, v.getByte(r)))
                            : null;
            case SMALLINT ->
                    vector instanceof HeapShortVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.putShort(at, v.getShort(r)))
                            : null;
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE ->
                    vector instanceof HeapIntVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.putInt(at, v.getInt(r)))
                            : null;
            case BIGINT ->
                    vector instanceof HeapLongVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.putLong(at, v.getLong(r)))
                            : null;
            case FLOAT ->
                    vector instanceof HeapFloatVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.putFloat(at, v.getFloat(r)))
                            : null;
            case DOUBLE ->
                    vector instanceof HeapDoubleVector v
                            ? new Fixed(pos, slot, v, (s, at, r) -> s.putDouble(at, v.getDouble(r)))
                            : null;
            case DECIMAL -> decimal((DecimalType) type, vector, pos, slot);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                int precision = LogicalTypeChecks.getPrecision(type);
                yield vector instanceof TimestampColumnVector t
                                && vector instanceof AbstractHeapVector v
                                && TimestampData.isCompact(precision)
                        ? new Fixed(
                                pos,
                                slot,
                                v,
                                (s, at, r) ->
                                        s.putLong(
                                                at, t.getTimestamp(r, precision).getMillisecond()))
                        : null;
            }
            default -> null;
        };
    }

    /** Compact decimals, whose slot holds the unscaled value; others go row by row. */
    @Nullable
    private static Column decimal(DecimalType type, ColumnVector vector, int pos, int slot) {
        if (!DecimalData.isCompact(type.getPrecision())) {
            return null;
        }
        if (vector instanceof RawVectors.IntDecimals v) {
            return new Fixed(pos, slot, v, (s, at, r) -> s.putLong(at, v.getInt(r)));
        }
        if (vector instanceof RawVectors.LongDecimals v) {
            return new Fixed(pos, slot, v, (s, at, r) -> s.putLong(at, v.getLong(r)));
        }
        return null;
    }

    /**
     * Appends rows {@code rows[from]} to {@code rows[from + count - 1]} of the batch to {@code
     * out}: a selection of the batch's rows, ascending (all of them, or those a deletion vector
     * keeps). REQUIRES: they fit its {@link BinaryRowBatch#remaining}.
     */
    void write(int[] rows, int from, int count, BinaryRowBatch out) {
        if (sizes.length < count) {
            sizes = new int[count];
            starts = new int[count];
            cursors = new int[count];
        }
        Arrays.fill(sizes, 0, count, fixedBytes);
        for (Column column : variable) {
            column.addSizes(rows, from, count, sizes);
        }
        int first = out.reserveZeroed(sizes, count);
        for (int i = 0; i < count; i++) {
            starts[i] = out.offset(first + i);
            cursors[i] = starts[i] + fixedBytes;
        }
        MemorySegment segment = out.segment();
        for (Column column : columns) {
            column.write(segment, rows, from, count, starts, cursors);
        }
    }

    /** How one column's values go into rows. */
    private abstract static class Column {
        final int pos;
        final int slot;
        final AbstractHeapVector vector;

        Column(int pos, int slot, AbstractHeapVector vector) {
            this.pos = pos;
            this.slot = slot;
            this.vector = vector;
        }

        boolean variable() {
            return false;
        }

        /** Adds the variable-part bytes of each selected row to its size. */
        void addSizes(int[] rows, int from, int count, int[] sizes) {}

        /**
         * Writes the column of each selected row {@code rows[from + i]} into the row starting at
         * {@code starts[i]}.
         */
        abstract void write(
                MemorySegment segment,
                int[] rows,
                int from,
                int count,
                int[] starts,
                int[] cursors);

        void setNull(MemorySegment segment, int rowStart) {
            int bit = pos + BinaryRowData.HEADER_SIZE_IN_BITS;
            int at = rowStart + (bit >>> 3);
            segment.put(at, (byte) (segment.get(at) | (1 << (bit & 7))));
        }
    }

    /** Writes one value of a row into its slot. */
    @FunctionalInterface
    private interface SlotWriter {
        void write(MemorySegment segment, int at, int row);
    }

    private static final class Fixed extends Column {
        private final SlotWriter writer;

        Fixed(int pos, int slot, AbstractHeapVector vector, SlotWriter writer) {
            super(pos, slot, vector);
            this.writer = writer;
        }

        @Override
        void write(
                MemorySegment segment,
                int[] rows,
                int from,
                int count,
                int[] starts,
                int[] cursors) {
            for (int i = 0; i < count; i++) {
                int row = rows[from + i];
                if (vector.isNullAt(row)) {
                    setNull(segment, starts[i]);
                } else {
                    writer.write(segment, starts[i] + slot, row);
                }
            }
        }
    }

    /** A column that is null in every row (one a file lacks): only its null bits are set. */
    private static final class NullColumn extends Column {
        NullColumn(int pos, int slot, AbstractHeapVector vector) {
            super(pos, slot, vector);
        }

        @Override
        void write(
                MemorySegment segment,
                int[] rows,
                int from,
                int count,
                int[] starts,
                int[] cursors) {
            for (int i = 0; i < count; i++) {
                setNull(segment, starts[i]);
            }
        }
    }

    /** Strings and binaries: inline up to 7 bytes, else in the variable part, padded to words. */
    private static final class BytesColumn extends Column {
        private final BytesColumnReader reader;

        BytesColumn(int pos, int slot, AbstractHeapVector vector, BytesColumnReader reader) {
            super(pos, slot, vector);
            this.reader = reader;
        }

        @Override
        boolean variable() {
            return true;
        }

        @Override
        void addSizes(int[] rows, int from, int count, int[] sizes) {
            for (int i = 0; i < count; i++) {
                int row = rows[from + i];
                if (!vector.isNullAt(row)) {
                    int length = reader.lengthAt(row);
                    if (length > 7) {
                        sizes[i] += (length + 7) & ~7;
                    }
                }
            }
        }

        @Override
        void write(
                MemorySegment segment,
                int[] rows,
                int from,
                int count,
                int[] starts,
                int[] cursors) {
            byte[] target = segment.getArray();
            for (int i = 0; i < count; i++) {
                int row = rows[from + i];
                int start = starts[i];
                if (vector.isNullAt(row)) {
                    setNull(segment, start);
                    continue;
                }
                int length = reader.lengthAt(row);
                if (length <= 7) {
                    reader.copyAt(row, target, start + slot);
                    target[start + slot + 7] = (byte) (length | 0x80);
                } else {
                    int at = cursors[i];
                    reader.copyAt(row, target, at);
                    segment.putLong(start + slot, ((long) (at - start) << 32) | length);
                    cursors[i] = at + ((length + 7) & ~7);
                }
            }
        }
    }
}
