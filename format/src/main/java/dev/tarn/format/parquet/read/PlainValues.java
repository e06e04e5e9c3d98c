package dev.tarn.format.parquet.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * PLAIN-encoded values of a page read straight from its little-endian buffer. Parquet's own plain
 * readers go through a {@code DataInputStream} per value, which costs several times more.
 * Byte-array callers may read {@link #buffer()} in place instead of creating {@link Binary}s.
 */
final class PlainValues extends ValuesReader {

    private final PrimitiveTypeName type;
    private final int fixedLength;
    private ByteBuffer buffer;

    /** The byte of booleans being read, and the index in it of the next one (8: read a byte). */
    private int bits;

    private int bit = Byte.SIZE;

    PlainValues(ColumnDescriptor column) {
        this.type = column.getPrimitiveType().getPrimitiveTypeName();
        this.fixedLength = column.getPrimitiveType().getTypeLength();
    }

    /** Whether values of {@code column} have a reader here: every primitive type has. */
    static boolean supports(ColumnDescriptor column) {
        return true;
    }

    @Override
    public void initFromPage(int valueCount, ByteBufferInputStream in) throws IOException {
        buffer = in.slice(in.available()).order(ByteOrder.LITTLE_ENDIAN);
        bit = Byte.SIZE;
    }

    /** A BOOLEAN page's values are bits, the first in the lowest bit of the first byte. */
    @Override
    public boolean readBoolean() {
        if (bit == Byte.SIZE) {
            bits = buffer.get();
            bit = 0;
        }
        return ((bits >>> bit++) & 1) != 0;
    }

    /** The page's values; its position is at the next value. */
    ByteBuffer buffer() {
        return buffer;
    }

    /** Length in bytes of the next byte-array value, moving past its length prefix if any. */
    int nextLength() {
        return switch (type) {
            case BINARY -> buffer.getInt();
            case INT96 -> 12;
            default -> fixedLength;
        };
    }

    @Override
    public int readInteger() {
        return buffer.getInt();
    }

    @Override
    public long readLong() {
        return buffer.getLong();
    }

    @Override
    public float readFloat() {
        return buffer.getFloat();
    }

    @Override
    public double readDouble() {
        return buffer.getDouble();
    }

    @Override
    public Binary readBytes() {
        int length = nextLength();
        ByteBuffer value = buffer.slice();
        value.limit(length);
        buffer.position(buffer.position() + length);
        return Binary.fromConstantByteBuffer(value);
    }

    @Override
    public void skip() {
        switch (type) {
            case BOOLEAN -> readBoolean();
            case INT32, FLOAT -> buffer.position(buffer.position() + 4);
            case INT64, DOUBLE -> buffer.position(buffer.position() + 8);
            default -> buffer.position(buffer.position() + nextLength());
        }
    }
}
