package dev.tarn.format.parquet.write;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/**
 * A growable little-endian byte array: the values of one page, a dictionary, or a page's levels.
 * Each store is one bounds check and one write; the array is kept from page to page.
 *
 * <p>{@link #view()} shares the array: it is valid until the next write or {@link #reset()}.
 * Parquet's page writer compresses and copies a page before it returns, so a view handed to it may
 * be reused right after.
 */
final class PageBytes {

    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes = new byte[256];
    private int size;

    int size() {
        return size;
    }

    byte[] array() {
        return bytes;
    }

    void reset() {
        size = 0;
    }

    /** Empties the buffer but for {@code room} leading bytes, to be filled in later. */
    void resetWithRoom(int room) {
        ensure(room);
        size = room;
    }

    void putByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    void putInt(int value) {
        ensure(Integer.BYTES);
        INT.set(bytes, size, value);
        size += Integer.BYTES;
    }

    void putLong(long value) {
        ensure(Long.BYTES);
        LONG.set(bytes, size, value);
        size += Long.BYTES;
    }

    /** The low {@code width} (4 or 8) bytes of {@code value}. */
    void putBits(long value, int width) {
        if (width == Integer.BYTES) {
            putInt((int) value);
        } else {
            putLong(value);
        }
    }

    void put(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, size, length);
        size += length;
    }

    /** ULEB128, as Parquet's level and dictionary-id runs start. */
    void putUnsignedVarInt(int value) {
        while ((value & ~0x7F) != 0) {
            putByte((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        putByte(value);
    }

    /** Overwrites the 4 bytes at {@code position} (reserved earlier) with {@code value}. */
    void setInt(int position, int value) {
        INT.set(bytes, position, value);
    }

    static int getInt(byte[] bytes, int position) {
        return (int) INT.get(bytes, position);
    }

    static long getLong(byte[] bytes, int position) {
        return (long) LONG.get(bytes, position);
    }

    BytesInput view() {
        return BytesInput.from(bytes, 0, size);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
