package dev.tarn.format.parquet;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.ParquetEncodingException;
import org.apache.parquet.io.api.Binary;

/**
 * PLAIN-encodes the values of one page into a single heap array, byte for byte as Parquet's {@link
 * PlainValuesWriter} does (little-endian numbers, floats by their canonical bits, binaries as a
 * 4-byte length and the bytes), and reports the same buffered size, so pages and row groups are cut
 * where Parquet would cut them. Parquet's writer goes through a stream and a list of byte buffers a
 * byte at a time; this one stores each value with one bounds check, and keeps its array from page
 * to page.
 *
 * <p>{@link #getBytes()} is a view of the array: it is valid until the next write or {@link
 * #reset()}, which is how Parquet's column writers use it (the page is compressed and copied before
 * the writer is reset).
 */
final class HeapPlainValuesWriter extends ValuesWriter {

    private static final VarHandle INT = le(int[].class);
    private static final VarHandle LONG = le(long[].class);

    private final int initialCapacity;
    private final Sink sink = new Sink();
    private byte[] bytes;
    private int size;

    /** Starts with {@code initialCapacity} bytes, grown by doubling. */
    HeapPlainValuesWriter(int initialCapacity) {
        this.initialCapacity = Math.max(64, initialCapacity);
        this.bytes = new byte[0];
    }

    @Override
    public void writeInteger(int value) {
        ensure(Integer.BYTES);
        INT.set(bytes, size, value);
        size += Integer.BYTES;
    }

    @Override
    public void writeLong(long value) {
        ensure(Long.BYTES);
        LONG.set(bytes, size, value);
        size += Long.BYTES;
    }

    @Override
    public void writeFloat(float value) {
        writeInteger(Float.floatToIntBits(value));
    }

    @Override
    public void writeDouble(double value) {
        writeLong(Double.doubleToLongBits(value));
    }

    @Override
    public void writeBytes(Binary value) {
        int length = value.length();
        ensure(Integer.BYTES + length);
        INT.set(bytes, size, length);
        size += Integer.BYTES;
        try {
            value.writeTo(sink);
        } catch (IOException e) {
            throw new ParquetEncodingException("could not write bytes", e);
        }
    }

    @Override
    public void writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    @Override
    public long getBufferedSize() {
        return size;
    }

    @Override
    public BytesInput getBytes() {
        return BytesInput.from(bytes, 0, size);
    }

    @Override
    public Encoding getEncoding() {
        return Encoding.PLAIN;
    }

    @Override
    public void reset() {
        size = 0;
    }

    @Override
    public void close() {
        bytes = new byte[0];
        size = 0;
    }

    @Override
    public long getAllocatedSize() {
        return bytes.length;
    }

    @Override
    public String memUsageString(String prefix) {
        return prefix + " PLAIN " + size + "/" + bytes.length + " bytes";
    }

    private void ensure(int more) {
        if (more > bytes.length - size) {
            long needed = (long) size + more;
            if (needed > Integer.MAX_VALUE - 16) {
                throw new ParquetEncodingException(
                        "Cannot buffer a page of " + needed + " bytes: it exceeds 2 GiB");
            }
            int capacity = Math.max(initialCapacity, bytes.length);
            while (capacity < needed) {
                capacity = (int) Math.min(2L * capacity, Integer.MAX_VALUE - 16);
            }
            bytes = Arrays.copyOf(bytes, capacity);
        }
    }

    private static VarHandle le(Class<?> view) {
        return MethodHandles.byteArrayViewVarHandle(view, ByteOrder.LITTLE_ENDIAN);
    }

    /** Where a {@link Binary} copies its bytes; room was made before the copy. */
    private final class Sink extends OutputStream {
        @Override
        public void write(int b) {
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, bytes, size, len);
            size += len;
        }
    }
}
