package dev.tarn.format.parquet.read;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
final class PlainValues extends ValuesReader implements BulkValues {

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

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

    @Override
    public void readInts(int[] out, int offset, int count) {
        if (!buffer.hasArray()) {
            for (int i = offset, end = offset + count; i < end; i++) {
                out[i] = buffer.getInt();
            }
            return;
        }
        wrap(start(count, Integer.BYTES), count * Integer.BYTES)
                .asIntBuffer()
                .get(out, offset, count);
    }

    @Override
    public void readLongs(long[] out, int offset, int count) {
        if (!buffer.hasArray()) {
            for (int i = offset, end = offset + count; i < end; i++) {
                out[i] = buffer.getLong();
            }
            return;
        }
        wrap(start(count, Long.BYTES), count * Long.BYTES).asLongBuffer().get(out, offset, count);
    }

    @Override
    public void readFloats(float[] out, int offset, int count) {
        if (!buffer.hasArray()) {
            for (int i = offset, end = offset + count; i < end; i++) {
                out[i] = buffer.getFloat();
            }
            return;
        }
        wrap(start(count, Float.BYTES), count * Float.BYTES)
                .asFloatBuffer()
                .get(out, offset, count);
    }

    @Override
    public void readDoubles(double[] out, int offset, int count) {
        if (!buffer.hasArray()) {
            for (int i = offset, end = offset + count; i < end; i++) {
                out[i] = buffer.getDouble();
            }
            return;
        }
        wrap(start(count, Double.BYTES), count * Double.BYTES)
                .asDoubleBuffer()
                .get(out, offset, count);
    }

    /** Reads the next {@code count} BOOLEAN values (bits) into {@code out} from {@code offset}. */
    void readBooleans(boolean[] out, int offset, int count) {
        int i = offset;
        int end = offset + count;
        while (i < end && bit != Byte.SIZE) {
            out[i++] = readBoolean();
        }
        // Whole bytes of eight values, then what is left of the last byte.
        while (end - i >= Byte.SIZE) {
            int b = buffer.get();
            for (int k = 0; k < Byte.SIZE; k++) {
                out[i + k] = ((b >>> k) & 1) != 0;
            }
            i += Byte.SIZE;
        }
        while (i < end) {
            out[i++] = readBoolean();
        }
    }

    /**
     * The index in the buffer's array of the next value, moving the buffer past the {@code count}
     * values of {@code width} bytes that follow it; fails naming the shortfall if the page holds
     * fewer.
     */
    private int start(int count, int width) {
        int position = buffer.position();
        int bytes = count * width;
        if (bytes > buffer.remaining()) {
            throw new IllegalStateException(
                    "A page ends "
                            + (bytes - buffer.remaining())
                            + " bytes before its "
                            + count
                            + " values of "
                            + width
                            + " bytes do: the page is corrupt");
        }
        buffer.position(position + bytes);
        return buffer.arrayOffset() + position;
    }

    /**
     * {@code bytes} bytes of the page's array from index {@code at}, little-endian: a view whose
     * bulk get copies them at once (the JVM's copy, with the byte swap if the platform needs one),
     * several times faster than a loop of single reads.
     */
    private ByteBuffer wrap(int at, int bytes) {
        return ByteBuffer.wrap(buffer.array(), at, bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The page's values; its position is at the next value. */
    ByteBuffer buffer() {
        return buffer;
    }

    /**
     * The length of every value of a fixed-length type (FIXED_LEN_BYTE_ARRAY, INT96); -1 where each
     * value is prefixed by its length (BINARY).
     */
    int fixedLength() {
        return switch (type) {
            case BINARY -> -1;
            case INT96 -> 12;
            default -> fixedLength;
        };
    }

    /** The error of a value of {@code length} bytes where its page has {@code left} bytes left. */
    static IllegalStateException pastEnd(int length, int left) {
        return new IllegalStateException(
                "A plain value of "
                        + length
                        + " bytes runs past the end of its page, which has "
                        + Math.max(0, left)
                        + " bytes left: the page is corrupt");
    }

    /** The little-endian int at {@code index} of {@code array}. */
    static int intAt(byte[] array, int index) {
        return (int) INT_LE.get(array, index);
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
    public void skip(int n) {
        if (type == PrimitiveTypeName.BINARY && buffer.hasArray()) {
            skipLengthPrefixed(n);
            return;
        }
        switch (type) {
            case INT32, FLOAT -> buffer.position(buffer.position() + 4 * n);
            case INT64, DOUBLE -> buffer.position(buffer.position() + 8 * n);
            default -> {
                for (int i = 0; i < n; i++) {
                    skip();
                }
            }
        }
    }

    /**
     * Moves past {@code n} length-prefixed values of a heap page, reading the lengths straight from
     * its array (a filter that keeps few rows passes over most of a string column this way); fails
     * naming the shortfall if a length runs past the page.
     */
    private void skipLengthPrefixed(int n) {
        byte[] array = buffer.array();
        int base = buffer.arrayOffset();
        int position = base + buffer.position();
        int limit = base + buffer.limit();
        for (int i = 0; i < n; i++) {
            if (limit - position < Integer.BYTES) {
                throw new IllegalStateException(
                        "A page ends within the length of its value "
                                + i
                                + " of "
                                + n
                                + " passed over: the page is corrupt");
            }
            int length = intAt(array, position);
            position += Integer.BYTES;
            if (length < 0 || length > limit - position) {
                throw pastEnd(length, limit - position);
            }
            position += length;
        }
        buffer.position(position - base);
    }

    @Override
    public void skip() {
        switch (type) {
            case BOOLEAN -> readBoolean();
            case INT32, FLOAT -> buffer.position(buffer.position() + 4);
            case INT64, DOUBLE -> buffer.position(buffer.position() + 8);
            default -> {
                // The length first: reading it moves the position past it.
                int length = nextLength();
                buffer.position(buffer.position() + length);
            }
        }
    }
}
