package dev.tarn.format.lsm;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Byte-wise comparison and 8-byte normalized prefixes of CHAR/VARCHAR/BINARY/VARBINARY fields.
 * Fields of a single-segment {@link BinaryRowData} are read in place without allocating; other rows
 * go through their getters. Order is unsigned byte-wise, shorter first on a common prefix: for
 * strings that is the order of their UTF-8 bytes, also when a string holds a Java String (whose own
 * {@code compareTo} would use UTF-16 order, which differs above U+FFFF).
 */
final class VarLengthFields {

    private static final long INLINE_MARK = 0x80L << 56;

    private VarLengthFields() {}

    static int compare(RowData a, RowData b, int pos, boolean isString) {
        if (a instanceof BinaryRowData ba
                && b instanceof BinaryRowData bb
                && ba.getSegments().length == 1
                && bb.getSegments().length == 1) {
            long sa = startAndLength(ba, pos);
            long sb = startAndLength(bb, pos);
            return ba.getSegments()[0].compare(
                    bb.getSegments()[0], (int) (sa >>> 32), (int) (sb >>> 32), (int) sa, (int) sb);
        }
        if (isString) {
            return compareStrings(a.getString(pos), b.getString(pos));
        }
        return Arrays.compareUnsigned(a.getBinary(pos), b.getBinary(pos));
    }

    /** The first 8 bytes as a big-endian number, zero padded, sign-flipped for signed order. */
    static long prefix(BinaryRowData row, int pos) {
        long result = 0;
        if (row.getSegments().length == 1) {
            MemorySegment segment = row.getSegments()[0];
            long sl = startAndLength(row, pos);
            int start = (int) (sl >>> 32);
            int length = Math.min(8, (int) sl);
            for (int i = 0; i < length; i++) {
                result |= (segment.get(start + i) & 0xFFL) << (56 - 8 * i);
            }
        } else {
            byte[] bytes = row.getBinary(pos);
            for (int i = 0; i < Math.min(8, bytes.length); i++) {
                result |= (bytes[i] & 0xFFL) << (56 - 8 * i);
            }
        }
        return result ^ Long.MIN_VALUE;
    }

    private static int compareStrings(StringData a, StringData b) {
        BinaryStringData sa = (BinaryStringData) a;
        BinaryStringData sb = (BinaryStringData) b;
        sa.ensureMaterialized();
        sb.ensureMaterialized();
        if (sa.getSegments().length == 1 && sb.getSegments().length == 1) {
            return sa.getSegments()[0].compare(
                    sb.getSegments()[0],
                    sa.getOffset(),
                    sb.getOffset(),
                    sa.getSizeInBytes(),
                    sb.getSizeInBytes());
        }
        return Arrays.compareUnsigned(sa.toBytes(), sb.toBytes());
    }

    /**
     * Absolute start (high 32 bits) and length (low 32 bits) of the bytes of field {@code pos}.
     * Values of at most 7 bytes may be stored inline in the field's 8-byte slot, marked by the
     * slot's highest bit, as Flink's BinaryRowWriter does.
     */
    private static long startAndLength(BinaryRowData row, int pos) {
        int fieldOffset =
                row.getOffset()
                        + BinaryRowData.calculateBitSetWidthInBytes(row.getArity())
                        + 8 * pos;
        long slot = row.getSegments()[0].getLong(fieldOffset);
        if ((slot & INLINE_MARK) == 0) {
            int start = row.getOffset() + (int) (slot >> 32);
            return ((long) start << 32) | (slot & 0xFFFFFFFFL);
        }
        int length = (int) ((slot >>> 56) & 0x7F);
        int start = BinaryRowData.LITTLE_ENDIAN ? fieldOffset : fieldOffset + 1;
        return ((long) start << 32) | length;
    }
}
