package dev.tarn.format.lsm;

import dev.tarn.format.row.SegmentBytes;
import dev.tarn.format.row.StringBytes;
import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Writes any {@link RowData} of one row type into Flink's {@link BinaryRowData} layout, in a buffer
 * reused from row to row (it grows, never shrinks), so that a {@code BinaryRowData}, {@code
 * BinaryArrayData} or {@code BinaryMapData} pointed at the bytes reads the row back. The layout is
 * that of Flink's BinaryRowWriter (which lives in flink-table-runtime, out of reach of format):
 *
 * <pre>
 * row:   [kind byte + null bits, 8-byte words][8-byte slot per field][variable part]
 * array: [int size][null bits, 4-byte words][1/2/4/8-byte elements, padded to 8][variable part]
 * map:   [int size of the key array][key array][value array]
 * </pre>
 *
 * A variable-length value's slot holds {@code offset from the enclosing row or array << 32 | size};
 * strings and binaries of at most 7 bytes sit inline in their slot (highest bit set, length in the
 * next 7). Variable parts are zero padded to 8 bytes. Flat rows encode without allocating. Not
 * thread-safe.
 */
final class BinaryRowEncoder {

    /** Writes field {@code pos} (not null) of a row into its slot; base is the row's start. */
    @FunctionalInterface
    interface FieldWriter {
        void write(RowData row, int pos, int slot, int base);
    }

    /** Writes element {@code pos} (not null) of an array; base is the array's start. */
    @FunctionalInterface
    interface ElementWriter {
        void write(ArrayData array, int pos, int slot, int base);
    }

    record RowLayout(int arity, FieldWriter[] writers) {
        int nullBitsBytes() {
            return BinaryRowData.calculateBitSetWidthInBytes(arity);
        }
    }

    record ArrayLayout(int elementSize, ElementWriter writer) {}

    private final RowLayout layout;
    private byte[] buffer = new byte[256];

    /** Where a short string copied as bytes lands before it is inlined. */
    private final byte[] inline = new byte[7];

    private MemorySegment segment = MemorySegmentFactory.wrap(buffer);
    private int cursor;

    BinaryRowEncoder(RowType rowType) {
        this.layout = FieldWriters.rowLayout(this, rowType.getChildren());
    }

    int arity() {
        return layout.arity();
    }

    /** Encodes the row with the kind in its header at offset 0; returns its size in bytes. */
    int encode(RowData row, RowKind kind) {
        cursor = 0;
        writeRowAt(row, layout);
        segment.put(0, kind.toByteValue());
        return cursor;
    }

    /** The buffer holding the last encoded row; replaced when it grows. */
    byte[] buffer() {
        return buffer;
    }

    MemorySegment segment() {
        return segment;
    }

    // ---- values, called by the writers of FieldWriters; slot and base are absolute offsets ----

    void writeString(StringData value, int slot, int base) {
        BinaryStringData string = (BinaryStringData) value;
        string.ensureMaterialized();
        MemorySegment[] source = string.getSegments();
        int offset = string.getOffset();
        int length = string.getSizeInBytes();
        if (length <= 7) {
            for (int i = 0; i < length; i++) {
                segment.put(inlineByte(slot, i), BinarySegmentUtils.getByte(source, offset + i));
            }
            segment.put(inlineMark(slot), (byte) (length | 0x80));
            return;
        }
        int start = reserveFor(length);
        SegmentBytes.copy(source, offset, buffer, start, length);
        segment.putLong(slot, ((long) (start - base) << 32) | length);
    }

    /** {@link #writeString(StringData, int, int)} of a string copied from its row as bytes. */
    void writeString(StringBytes row, int pos, int slot, int base) {
        int length = row.stringLength(pos);
        if (length <= 7) {
            row.copyString(pos, inline, 0);
            for (int i = 0; i < length; i++) {
                segment.put(inlineByte(slot, i), inline[i]);
            }
            segment.put(inlineMark(slot), (byte) (length | 0x80));
            return;
        }
        int start = reserveFor(length);
        row.copyString(pos, buffer, start);
        segment.putLong(slot, ((long) (start - base) << 32) | length);
    }

    void writeBinary(byte[] value, int slot, int base) {
        if (value.length <= 7) {
            for (int i = 0; i < value.length; i++) {
                segment.put(inlineByte(slot, i), value[i]);
            }
            segment.put(inlineMark(slot), (byte) (value.length | 0x80));
            return;
        }
        writeVariablePart(value, slot, base);
    }

    /** Bytes that are never inlined (decimals, raw values, bitmaps): readers expect an offset. */
    void writeVariablePart(byte[] value, int slot, int base) {
        int start = reserveFor(value.length);
        System.arraycopy(value, 0, buffer, start, value.length);
        segment.putLong(slot, ((long) (start - base) << 32) | value.length);
    }

    void writeDecimal(DecimalData value, int precision, int slot, int base) {
        if (DecimalData.isCompact(precision)) {
            segment.putLong(slot, value.toUnscaledLong());
        } else {
            writeVariablePart(value.toUnscaledBytes(), slot, base);
        }
    }

    void writeTimestamp(TimestampData value, int precision, int slot, int base) {
        if (TimestampData.isCompact(precision)) {
            segment.putLong(slot, value.getMillisecond());
            return;
        }
        int start = reserve(8);
        segment.putLong(start, value.getMillisecond());
        segment.putLong(slot, ((long) (start - base) << 32) | value.getNanoOfMillisecond());
    }

    /** A variant as [big-endian int metadata length][metadata][value], as Flink reads it. */
    void writeVariant(byte[] metadata, byte[] value, int slot, int base) {
        int size = 4 + metadata.length + value.length;
        int start = reserve(size);
        segment.putIntBigEndian(start, metadata.length);
        System.arraycopy(metadata, 0, buffer, start + 4, metadata.length);
        System.arraycopy(value, 0, buffer, start + 4 + metadata.length, value.length);
        segment.putLong(slot, ((long) (start - base) << 32) | size);
    }

    void writeRow(RowData value, RowLayout nested, int slot, int base) {
        int start = writeRowAt(value, nested);
        segment.putLong(slot, ((long) (start - base) << 32) | (cursor - start));
    }

    void writeArray(ArrayData value, ArrayLayout elements, int slot, int base) {
        int start = writeArrayAt(value, elements);
        segment.putLong(slot, ((long) (start - base) << 32) | (cursor - start));
    }

    void writeMap(MapData value, ArrayLayout keys, ArrayLayout values, int slot, int base) {
        int start = reserveExact(4);
        int keysStart = writeArrayAt(value.keyArray(), keys);
        segment.putInt(start, cursor - keysStart);
        writeArrayAt(value.valueArray(), values);
        int size = cursor - start;
        reserveExact((8 - (size & 7)) & 7);
        segment.putLong(slot, ((long) (start - base) << 32) | size);
    }

    private int writeRowAt(RowData row, RowLayout rowLayout) {
        int nullBits = rowLayout.nullBitsBytes();
        int start = reserve(nullBits + 8 * rowLayout.arity());
        FieldWriter[] writers = rowLayout.writers();
        for (int i = 0; i < writers.length; i++) {
            if (row.isNullAt(i)) {
                BinarySegmentUtils.bitSet(segment, start, i + BinaryRowData.HEADER_SIZE_IN_BITS);
            } else {
                writers[i].write(row, i, start + nullBits + 8 * i, start);
            }
        }
        return start;
    }

    private int writeArrayAt(ArrayData array, ArrayLayout arrayLayout) {
        int size = array.size();
        int header = 4 + ((size + 31) / 32) * 4;
        int start = reserve(header + arrayLayout.elementSize() * size);
        segment.putInt(start, size);
        for (int i = 0; i < size; i++) {
            if (array.isNullAt(i)) {
                BinarySegmentUtils.bitSet(segment, start + 4, i);
            } else {
                int slot = start + header + i * arrayLayout.elementSize();
                arrayLayout.writer().write(array, i, slot, start);
            }
        }
        return start;
    }

    /**
     * Appends room for {@code size} bytes the caller writes at once, rounded up to 8-byte words of
     * which only the padding is zeroed; returns its start.
     */
    private int reserveFor(int size) {
        int start = cursor;
        int end = start + ((size + 7) & ~7);
        if (end > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(end, buffer.length * 2));
            segment = MemorySegmentFactory.wrap(buffer);
        }
        for (int i = start + size; i < end; i++) {
            buffer[i] = 0;
        }
        cursor = end;
        return start;
    }

    /** Appends {@code size} zero bytes rounded up to 8-byte words; returns their start. */
    private int reserve(int size) {
        return reserveExact((size + 7) & ~7);
    }

    private int reserveExact(int size) {
        int start = cursor;
        int end = start + size;
        if (end > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(end, buffer.length * 2));
            segment = MemorySegmentFactory.wrap(buffer);
        }
        Arrays.fill(buffer, start, end, (byte) 0);
        cursor = end;
        return start;
    }

    private static int inlineByte(int slot, int i) {
        return BinaryRowData.LITTLE_ENDIAN ? slot + i : slot + 1 + i;
    }

    private static int inlineMark(int slot) {
        return BinaryRowData.LITTLE_ENDIAN ? slot + 7 : slot;
    }
}
