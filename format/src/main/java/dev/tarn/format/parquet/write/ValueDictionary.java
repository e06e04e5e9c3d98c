package dev.tarn.format.parquet.write;

import java.util.Arrays;

/**
 * The dictionary of one column chunk: distinct values in order of first appearance, each with its
 * id (its index), and their PLAIN encoding, which is the dictionary page as is. Values are either
 * fixed-width bit patterns (4 or 8 bytes: INT32, FLOAT, INT64, DOUBLE) or byte strings (BINARY,
 * stored as a 4-byte length and the bytes). Lookup is open addressing over the ids, with the keys
 * read back from the encoded values, so an entry costs its encoded bytes and one int.
 */
final class ValueDictionary {

    /** 0 for byte strings, else the width in bytes of each value. */
    private final int width;

    private final PageBytes encoded = new PageBytes();

    /** Offset in {@link #encoded} of each id's value; only for byte strings. */
    private int[] offsets = new int[64];

    /** id + 1 per slot, 0 where empty; a power of two, at most half full. */
    private int[] slots = new int[64];

    private int size;

    private ValueDictionary(int width) {
        this.width = width;
    }

    static ValueDictionary ofWidth(int width) {
        return new ValueDictionary(width);
    }

    static ValueDictionary ofByteStrings() {
        return new ValueDictionary(0);
    }

    int size() {
        return size;
    }

    /** Bytes of the dictionary page: every value PLAIN-encoded. */
    int byteSize() {
        return encoded.size();
    }

    PageBytes encoded() {
        return encoded;
    }

    /** The id of a fixed-width value, added if new. */
    int idOf(long bits) {
        int mask = slots.length - 1;
        int slot = (int) mix(bits) & mask;
        byte[] values = encoded.array();
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                encoded.putBits(bits, width);
                return add(slot);
            }
            int id = entry - 1;
            if (bitsAt(values, id) == bits) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** The fixed-width value of {@code id}. */
    long bits(int id) {
        return bitsAt(encoded.array(), id);
    }

    /** The id of a byte string, added if new. */
    int idOf(byte[] bytes, int offset, int length) {
        int mask = slots.length - 1;
        int slot = hash(bytes, offset, length) & mask;
        byte[] values = encoded.array();
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                if (size == offsets.length) {
                    offsets = Arrays.copyOf(offsets, size * 2);
                }
                offsets[size] = encoded.size();
                encoded.putInt(length);
                encoded.put(bytes, offset, length);
                return add(slot);
            }
            int id = entry - 1;
            int at = offsets[id];
            if (PageBytes.getInt(values, at) == length
                    && Arrays.equals(
                            values, at + 4, at + 4 + length, bytes, offset, offset + length)) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Appends the PLAIN encoding of byte string {@code id} (length and bytes) to {@code out}. */
    void copyByteString(int id, PageBytes out) {
        int at = offsets[id];
        out.put(encoded.array(), at, 4 + PageBytes.getInt(encoded.array(), at));
    }

    void clear() {
        Arrays.fill(slots, 0);
        encoded.reset();
        size = 0;
    }

    private long bitsAt(byte[] values, int id) {
        return width == Integer.BYTES
                ? PageBytes.getInt(values, id * Integer.BYTES)
                : PageBytes.getLong(values, id * Long.BYTES);
    }

    private int add(int slot) {
        slots[slot] = ++size;
        if (size * 2 > slots.length) {
            rehash();
        }
        return size - 1;
    }

    private void rehash() {
        int[] old = slots;
        slots = new int[old.length * 2];
        int mask = slots.length - 1;
        byte[] values = encoded.array();
        for (int entry : old) {
            if (entry != 0) {
                int id = entry - 1;
                int slot =
                        (width == 0
                                        ? hash(
                                                values,
                                                offsets[id] + 4,
                                                PageBytes.getInt(values, offsets[id]))
                                        : (int) mix(bitsAt(values, id)))
                                & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = entry;
            }
        }
    }

    private static long mix(long bits) {
        long h = bits * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    private static int hash(byte[] bytes, int offset, int length) {
        long h = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h ^ PageBytes.getLong(bytes, offset + i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < length; i++) {
            h = (h ^ bytes[offset + i]) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 32));
    }
}
