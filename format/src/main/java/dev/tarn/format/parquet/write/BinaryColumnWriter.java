package dev.tarn.format.parquet.write;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Pages of a BINARY, FIXED_LEN_BYTE_ARRAY or INT96 column. BINARY values (strings, bytes) are
 * dictionary-encoded while the dictionary pays and stays under {@code pageSize} bytes, and PLAIN (a
 * 4-byte length, then the bytes) after; as for numbers, a file whose chunk fell back stays PLAIN.
 * Fixed-length values (wide decimals, INT96 timestamps) are always PLAIN, their bytes alone.
 *
 * <p>Min and max follow the column type's order: unsigned lexicographic for BINARY, compared with
 * {@link Arrays#compareUnsigned}; the type's own comparator otherwise.
 */
final class BinaryColumnWriter extends DictionaryColumnWriter {

    private final boolean lengthPrefixed;
    private final boolean unsignedOrder;
    private long rawBytes;

    private boolean hasValue;
    private byte[] min = new byte[16];
    private int minLength;
    private byte[] max = new byte[16];
    private int maxLength;

    BinaryColumnWriter(
            ColumnDescriptor column, int pageSize, int pageValueLimit, boolean useDictionary) {
        super(
                column,
                pageSize,
                pageValueLimit,
                ValueDictionary.ofByteStrings(),
                useDictionary && isBinary(column));
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        if (physical != PrimitiveTypeName.BINARY
                && physical != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && physical != PrimitiveTypeName.INT96) {
            throw new IllegalArgumentException(
                    "Column " + column + " is not a byte column: " + physical);
        }
        this.lengthPrefixed = isBinary(column);
        this.unsignedOrder =
                (Object) type.comparator()
                        == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR;
    }

    @Override
    public void addBinary(Binary value) {
        ByteBuffer bytes = value.toByteBuffer();
        if (bytes.hasArray()) {
            add(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        } else {
            byte[] copy = value.getBytes();
            add(copy, 0, copy.length);
        }
    }

    /** Appends the bytes {@code [offset, offset + length)} of {@code bytes} as one value. */
    void add(byte[] bytes, int offset, int length) {
        track(bytes, offset, length);
        if (encodingIds) {
            rawBytes += Integer.BYTES + length;
            appendId(dictionary.idOf(bytes, offset, length));
        } else {
            if (lengthPrefixed) {
                plain.putInt(length);
            }
            plain.put(bytes, offset, length);
        }
        valueAdded(pageBytes());
    }

    private void track(byte[] bytes, int offset, int length) {
        if (!hasValue) {
            hasValue = true;
            min = keep(min, bytes, offset, length);
            minLength = length;
            max = keep(max, bytes, offset, length);
            maxLength = length;
        } else if (compare(bytes, offset, length, min, minLength) < 0) {
            min = keep(min, bytes, offset, length);
            minLength = length;
        } else if (compare(bytes, offset, length, max, maxLength) > 0) {
            max = keep(max, bytes, offset, length);
            maxLength = length;
        }
    }

    private int compare(byte[] bytes, int offset, int length, byte[] bound, int boundLength) {
        if (unsignedOrder) {
            return Arrays.compareUnsigned(bytes, offset, offset + length, bound, 0, boundLength);
        }
        return type.comparator()
                .compare(
                        Binary.fromConstantByteArray(bytes, offset, length),
                        Binary.fromConstantByteArray(bound, 0, boundLength));
    }

    private static byte[] keep(byte[] into, byte[] bytes, int offset, int length) {
        byte[] target = into.length >= length ? into : new byte[Math.max(length, into.length * 2)];
        System.arraycopy(bytes, offset, target, 0, length);
        return target;
    }

    private static boolean isBinary(ColumnDescriptor column) {
        return column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
    }

    @Override
    void appendPlain(int id) {
        dictionary.copyByteString(id, plain);
    }

    @Override
    long plainBytesOfIds(int idCount) {
        return rawBytes;
    }

    @Override
    void addMinMax(Statistics<?> statistics) {
        // Reused binaries: the statistics copy them, and the arrays change with the next page.
        statistics.updateStats(Binary.fromReusedByteArray(min, 0, minLength));
        statistics.updateStats(Binary.fromReusedByteArray(max, 0, maxLength));
    }

    @Override
    void resetPage() {
        super.resetPage();
        rawBytes = 0;
        hasValue = false;
    }
}
