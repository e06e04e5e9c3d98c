package dev.tarn.format.deletion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.zip.CRC32;
import org.roaringbitmap.RoaringBitmap;

/**
 * A {@link DeletionVector} as the bytes of a Puffin {@code deletion-vector-v1} blob (SPEC.md,
 * "Deletion vectors"), the blob Apache Iceberg v3 readers take: a big-endian length of what follows
 * up to the checksum, the magic {@code D1 D3 39 64}, the vector in the portable 64-bit Roaring
 * layout (little-endian: a bitmap count, then per key in ascending order the key and its 32-bit
 * Roaring bitmap), and a big-endian CRC-32 of magic and vector.
 */
final class DeletionVectorCodec {

    static final byte[] MAGIC = {(byte) 0xD1, (byte) 0xD3, 0x39, 0x64};

    /** Length prefix, magic, bitmap count and checksum: the blob of an empty vector. */
    static final int MIN_LENGTH = 4 + 4 + 8 + 4;

    /** The largest key a position of {@link DeletionVector#MAX_POSITION} or below has. */
    private static final int MAX_KEY = Integer.MAX_VALUE - 1;

    /**
     * The blob of {@code vector}. Run-length encodes its bitmaps first where that is smaller, as
     * Iceberg's writer does, so the same positions give the same bytes.
     *
     * @throws IllegalArgumentException if the blob would exceed 2 GiB
     */
    static byte[] encode(DeletionVector vector) {
        long vectorLength = 8;
        for (RoaringBitmap bitmap : vector.bitmaps().values()) {
            bitmap.runOptimize();
            vectorLength += 4 + bitmap.serializedSizeInBytes();
        }
        long dataLength = MAGIC.length + vectorLength;
        if (dataLength + 8 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Deletion vector is too large to store: "
                            + (dataLength + 8)
                            + " bytes, at most "
                            + Integer.MAX_VALUE);
        }
        ByteBuffer blob = ByteBuffer.allocate((int) dataLength + 8);
        blob.putInt((int) dataLength);
        blob.put(MAGIC);
        blob.order(ByteOrder.LITTLE_ENDIAN);
        blob.putLong(vector.bitmaps().size());
        for (Map.Entry<Integer, RoaringBitmap> entry : vector.bitmaps().entrySet()) {
            blob.putInt(entry.getKey());
            entry.getValue().serialize(blob);
        }
        blob.order(ByteOrder.BIG_ENDIAN);
        blob.putInt(crc(blob.array(), (int) dataLength));
        return blob.array();
    }

    /**
     * The vector of the blob {@code bytes}.
     *
     * @param source names the blob in error messages (which data file, which index file)
     * @throws IOException naming {@code source}, what is wrong and the value found if the blob is
     *     truncated, its length prefix, magic or checksum is wrong, or its vector is malformed
     */
    static DeletionVector decode(byte[] bytes, String source) throws IOException {
        if (bytes.length < MIN_LENGTH) {
            throw corrupt(
                    source,
                    "truncated, "
                            + bytes.length
                            + " bytes where a vector has at least "
                            + MIN_LENGTH);
        }
        ByteBuffer blob = ByteBuffer.wrap(bytes);
        int dataLength = blob.getInt(0);
        if (dataLength != bytes.length - 8) {
            throw corrupt(
                    source,
                    "length prefix "
                            + dataLength
                            + " does not match the "
                            + (bytes.length - 8)
                            + " bytes of magic and vector in the blob");
        }
        int magic = blob.getInt(4);
        if (magic != ByteBuffer.wrap(MAGIC).getInt()) {
            throw corrupt(source, "bad magic " + hex(magic) + ", expected " + hex(MAGIC));
        }
        int stored = blob.getInt(bytes.length - 4);
        int computed = crc(bytes, dataLength);
        if (stored != computed) {
            throw corrupt(
                    source,
                    "CRC-32 mismatch, stored " + hex(stored) + " but computed " + hex(computed));
        }
        ByteBuffer vector =
                ByteBuffer.wrap(bytes, 8, dataLength - MAGIC.length)
                        .slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
        try {
            return readVector(vector);
        } catch (IllegalArgumentException e) {
            throw corrupt(source, e.getMessage());
        }
    }

    private static DeletionVector readVector(ByteBuffer in) {
        long count = in.getLong();
        // Each bitmap takes at least its 4-byte key and an 8-byte empty bitmap.
        if (count < 0 || count > in.remaining() / 12) {
            throw new IllegalArgumentException(
                    "bitmap count "
                            + count
                            + " does not fit in the "
                            + in.remaining()
                            + " bytes that follow it");
        }
        DeletionVector vector = new DeletionVector();
        long lastKey = -1;
        for (long i = 0; i < count; i++) {
            if (in.remaining() < 4) {
                throw new IllegalArgumentException(
                        "truncated, no key for bitmap " + i + " of " + count);
            }
            int key = in.getInt();
            if (key < 0 || key > MAX_KEY) {
                throw new IllegalArgumentException(
                        "key "
                                + Integer.toUnsignedString(key)
                                + " of bitmap "
                                + i
                                + " is out of range: keys go from 0 to "
                                + MAX_KEY);
            }
            if (key <= lastKey) {
                throw new IllegalArgumentException(
                        "keys are not ascending: key " + key + " follows key " + lastKey);
            }
            RoaringBitmap bitmap = readBitmap(in, key);
            if (!bitmap.isEmpty()) {
                vector.bitmaps().put(key, bitmap);
            }
            lastKey = key;
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(
                    in.remaining() + " bytes follow the last of " + count + " bitmaps");
        }
        return vector;
    }

    private static RoaringBitmap readBitmap(ByteBuffer in, int key) {
        RoaringBitmap bitmap = new RoaringBitmap();
        try {
            bitmap.deserialize(in.slice().order(ByteOrder.LITTLE_ENDIAN));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "the Roaring bitmap of key " + key + " is malformed: " + e.getMessage(), e);
        }
        int size = bitmap.serializedSizeInBytes();
        if (size > in.remaining()) {
            throw new IllegalArgumentException(
                    "the Roaring bitmap of key "
                            + key
                            + " needs "
                            + size
                            + " bytes, "
                            + in.remaining()
                            + " remain");
        }
        in.position(in.position() + size);
        return bitmap;
    }

    /** The CRC-32 of the {@code dataLength} bytes of magic and vector after the length prefix. */
    private static int crc(byte[] blob, int dataLength) {
        CRC32 crc = new CRC32();
        crc.update(blob, 4, dataLength);
        return (int) crc.getValue();
    }

    private static IOException corrupt(String source, String reason) {
        return new IOException("Corrupt deletion vector " + source + ": " + reason);
    }

    private static String hex(int value) {
        return String.format("0x%08X", value);
    }

    private static String hex(byte[] bytes) {
        return hex(ByteBuffer.wrap(bytes).getInt());
    }

    private DeletionVectorCodec() {}
}
