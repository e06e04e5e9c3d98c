package dev.tarn.format.parquet.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;

/**
 * The values of a dictionary-encoded page: its ids (a bit width, then Parquet's RLE/bit-packed
 * hybrid) decoded all at once when the page starts, runs filled and bit-packed groups unpacked
 * eight at a time, rather than one value per call through Parquet's decoder. Numbers are then
 * looked up in an array of the row group's dictionary. One per column reader, reused for every page
 * of the column; {@link #of} makes it for each row group's dictionary.
 *
 * <p>Invariant: {@code ids[0..count)} are the page's ids, {@code position} the next to read.
 */
final class DictionaryIds extends ValuesReader implements BulkValues {

    @Nullable private final int[] ints;
    @Nullable private final long[] longs;
    @Nullable private final float[] floats;
    @Nullable private final double[] doubles;
    private final Dictionary dictionary;
    private final int dictionarySize;
    private int[] ids = new int[0];
    private int count;
    private int position;

    private DictionaryIds(ColumnDescriptor column, Dictionary dictionary) {
        int size = dictionary.getMaxId() + 1;
        this.dictionary = dictionary;
        this.dictionarySize = size;
        int[] i = null;
        long[] l = null;
        float[] f = null;
        double[] d = null;
        switch (column.getPrimitiveType().getPrimitiveTypeName()) {
            case INT32 -> {
                i = new int[size];
                for (int id = 0; id < size; id++) {
                    i[id] = dictionary.decodeToInt(id);
                }
            }
            case INT64 -> {
                l = new long[size];
                for (int id = 0; id < size; id++) {
                    l[id] = dictionary.decodeToLong(id);
                }
            }
            case FLOAT -> {
                f = new float[size];
                for (int id = 0; id < size; id++) {
                    f[id] = dictionary.decodeToFloat(id);
                }
            }
            case DOUBLE -> {
                d = new double[size];
                for (int id = 0; id < size; id++) {
                    d[id] = dictionary.decodeToDouble(id);
                }
            }
            default -> {
                // Byte strings: the column reader looks ids up itself.
            }
        }
        this.ints = i;
        this.longs = l;
        this.floats = f;
        this.doubles = d;
    }

    /** The ids reader of a row group whose chunk has {@code dictionary}. */
    static DictionaryIds of(ColumnDescriptor column, Dictionary dictionary) {
        return new DictionaryIds(column, dictionary);
    }

    @Override
    public void initFromPage(int valueCount, ByteBufferInputStream in) throws IOException {
        ByteBuffer page = in.slice(in.available());
        position = 0;
        count = 0;
        if (valueCount == 0 || !page.hasRemaining()) {
            return;
        }
        int at = page.position();
        int bitWidth = page.get(at++) & 0xFF;
        if (bitWidth > 32) {
            throw new ParquetDecodingException("Dictionary id bit width " + bitWidth + " > 32");
        }
        if (ids.length < valueCount + 8) {
            ids = new int[valueCount + 8];
        }
        BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
        int valueBytes = (bitWidth + 7) / 8;
        int end = page.limit();
        // A heap page is unpacked from its array: Parquet's packers read a ByteBuffer one checked
        // byte at a time, an array in one bounds check per group.
        byte[] array = page.hasArray() ? page.array() : null;
        int base = array == null ? 0 : page.arrayOffset();
        int n = 0;
        while (n < valueCount && at < end) {
            int header = 0;
            int shift = 0;
            int b;
            do {
                b = page.get(at++);
                header |= (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if ((header & 1) == 0) {
                int value = 0;
                for (int k = 0; k < valueBytes; k++) {
                    value |= (page.get(at++) & 0xFF) << (8 * k);
                }
                int run = Math.min(header >>> 1, valueCount - n);
                Arrays.fill(ids, n, n + run, value);
                n += run;
            } else {
                int groups = header >>> 1;
                for (int g = 0; g < groups && n < valueCount; g++) {
                    if (at + bitWidth > end) {
                        // The last group may be cut short: unpack it from a zero-padded copy.
                        byte[] padded = new byte[bitWidth];
                        for (int k = 0; at + k < end; k++) {
                            padded[k] = page.get(at + k);
                        }
                        packer.unpack8Values(padded, 0, ids, n);
                    } else if (array != null) {
                        packer.unpack8Values(array, base + at, ids, n);
                    } else {
                        packer.unpack8Values(page, at, ids, n);
                    }
                    at += bitWidth;
                    n += 8;
                }
            }
        }
        count = Math.min(n, valueCount);
        checkIds(bitWidth);
    }

    /**
     * Fails naming the first of the page's ids outside the dictionary. Ids of {@code bitWidth} bits
     * below the dictionary's size need no look: they cannot be outside it.
     */
    private void checkIds(int bitWidth) {
        if (bitWidth < 31 && (1 << bitWidth) <= dictionarySize) {
            return;
        }
        // Branch-free, so that the loop runs over many ids at once: an id out of range sets the
        // sign bit of one of the two terms.
        int last = dictionarySize - 1;
        int outside = 0;
        for (int k = 0; k < count; k++) {
            outside |= ids[k] | (last - ids[k]);
        }
        if (outside >= 0) {
            return;
        }
        for (int k = 0; k < count; k++) {
            if (ids[k] > last || ids[k] < 0) {
                throw new ParquetDecodingException(
                        "Dictionary id " + ids[k] + " out of a dictionary of " + dictionarySize);
            }
        }
    }

    private int next() {
        if (position >= count) {
            throw new ParquetDecodingException(
                    "Page ends after " + count + " dictionary ids, more values were read");
        }
        return ids[position++];
    }

    /**
     * The index in {@link #ids} of the next of {@code n} ids, moving past them; fails as {@link
     * #next} does if the page has fewer.
     */
    private int take(int n) {
        if (n > count - position) {
            throw new ParquetDecodingException(
                    "Page ends after " + count + " dictionary ids, more values were read");
        }
        int first = position;
        position += n;
        return first;
    }

    /** Copies the next {@code n} ids into {@code out} from {@code offset}. */
    void readIds(int[] out, int offset, int n) {
        System.arraycopy(ids, take(n), out, offset, n);
    }

    @Override
    public void readInts(int[] out, int offset, int n) {
        int[] values = ints;
        for (int i = offset, at = take(n), end = offset + n; i < end; i++, at++) {
            out[i] = values[ids[at]];
        }
    }

    @Override
    public void readLongs(long[] out, int offset, int n) {
        long[] values = longs;
        for (int i = offset, at = take(n), end = offset + n; i < end; i++, at++) {
            out[i] = values[ids[at]];
        }
    }

    @Override
    public void readFloats(float[] out, int offset, int n) {
        float[] values = floats;
        for (int i = offset, at = take(n), end = offset + n; i < end; i++, at++) {
            out[i] = values[ids[at]];
        }
    }

    @Override
    public void readDoubles(double[] out, int offset, int n) {
        double[] values = doubles;
        for (int i = offset, at = take(n), end = offset + n; i < end; i++, at++) {
            out[i] = values[ids[at]];
        }
    }

    @Override
    public int readValueDictionaryId() {
        return next();
    }

    @Override
    public int readInteger() {
        return ints[next()];
    }

    @Override
    public long readLong() {
        return longs[next()];
    }

    @Override
    public float readFloat() {
        return floats[next()];
    }

    @Override
    public double readDouble() {
        return doubles[next()];
    }

    @Override
    public Binary readBytes() {
        return dictionary.decodeToBinary(next());
    }

    @Override
    public void skip() {
        next();
    }

    @Override
    public void skip(int n) {
        if (n > count - position) {
            throw new ParquetDecodingException(
                    "Cannot skip " + n + " dictionary ids: " + (count - position) + " left");
        }
        position += n;
    }
}
