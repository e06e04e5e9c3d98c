package dev.tarn.format.deletion;

import static dev.tarn.format.deletion.DeletionVectorTest.TWO_TO_32;
import static dev.tarn.format.deletion.DeletionVectorTest.fromModel;
import static dev.tarn.format.deletion.DeletionVectorTest.positions;
import static dev.tarn.format.deletion.DeletionVectorTest.randomPositions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class DeletionVectorCodecTest {

    private static final String SOURCE = "of data file d in index file i";

    @Test
    void emptyOnePositionAndFarPositionsRoundTrip() throws IOException {
        for (DeletionVector vector :
                new DeletionVector[] {
                    new DeletionVector(),
                    DeletionVector.of(0),
                    DeletionVector.of(TWO_TO_32 - 1, TWO_TO_32, 3 * TWO_TO_32 + 5),
                    DeletionVector.of(DeletionVector.MAX_POSITION)
                }) {
            DeletionVector decoded = roundTrip(vector);
            assertThat(positions(decoded)).isEqualTo(positions(vector));
            assertThat(decoded).isEqualTo(vector);
        }
    }

    @Test
    void anEmptyVectorIsTheSmallestBlob() {
        assertThat(HexFormat.of().formatHex(DeletionVectorCodec.encode(new DeletionVector())))
                .isEqualTo(
                        "0000000c" // length of magic and vector, big-endian
                                + "d1d33964" // magic
                                + "0000000000000000" // no bitmaps, little-endian
                                + "bf18480c"); // CRC-32 of magic and vector, big-endian
    }

    @Test
    void oneBitmapIsLittleEndianInsideTheBigEndianFrame() {
        byte[] blob = DeletionVectorCodec.encode(DeletionVector.of(TWO_TO_32 + 1));
        ByteBuffer little = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(ByteBuffer.wrap(blob).getInt(0)).isEqualTo(blob.length - 8);
        assertThat(little.getLong(8)).isEqualTo(1); // one bitmap
        assertThat(little.getInt(16)).isEqualTo(1); // its key: the high half of 2^32 + 1
        RoaringBitmap expected = RoaringBitmap.bitmapOf(1);
        ByteBuffer bitmap = ByteBuffer.allocate(expected.serializedSizeInBytes());
        expected.serialize(bitmap);
        assertThat(Arrays.copyOfRange(blob, 20, blob.length - 4)).isEqualTo(bitmap.array());
    }

    @Test
    void randomVectorsAndMergesRoundTrip() throws IOException {
        Random random = new Random(11);
        for (int round = 0; round < 30; round++) {
            TreeSet<Long> model = randomPositions(random, random.nextInt(3000));
            DeletionVector vector = fromModel(model);
            assertThat(positions(roundTrip(vector))).containsExactlyElementsOf(model);

            TreeSet<Long> more = randomPositions(random, 100);
            DeletionVector merged = roundTrip(vector);
            merged.merge(fromModel(more));
            model.addAll(more);
            assertThat(positions(roundTrip(merged))).containsExactlyElementsOf(model);
        }
    }

    @Test
    void runsOfPositionsRoundTripRunLengthEncoded() throws IOException {
        DeletionVector vector = new DeletionVector();
        for (long position = 100; position < 200_000; position++) {
            vector.add(position);
        }
        byte[] blob = DeletionVectorCodec.encode(vector);

        assertThat(blob.length).isLessThan(100);
        assertThat(DeletionVectorCodec.decode(blob, SOURCE).cardinality()).isEqualTo(199_900);
    }

    @Test
    void aTruncatedBlobNamesItsLength() {
        assertThatThrownBy(() -> DeletionVectorCodec.decode(new byte[19], SOURCE))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "Corrupt deletion vector of data file d in index file i: truncated, 19"
                                + " bytes where a vector has at least 20");
    }

    @Test
    void aWrongLengthPrefixNamesBothLengths() {
        byte[] blob = DeletionVectorCodec.encode(DeletionVector.of(1, 2, 3));
        byte[] cut = Arrays.copyOf(blob, blob.length - 1);

        assertThatThrownBy(() -> DeletionVectorCodec.decode(cut, SOURCE))
                .hasMessage(
                        "Corrupt deletion vector of data file d in index file i: length prefix "
                                + (blob.length - 8)
                                + " does not match the "
                                + (blob.length - 9)
                                + " bytes of magic and vector in the blob");
    }

    @Test
    void aBadMagicNamesWhatWasFound() {
        byte[] blob = DeletionVectorCodec.encode(DeletionVector.of(1));
        blob[4] = 0x50;

        assertThatThrownBy(() -> DeletionVectorCodec.decode(blob, SOURCE))
                .hasMessage(
                        "Corrupt deletion vector of data file d in index file i: bad magic"
                                + " 0x50D33964, expected 0xD1D33964");
    }

    @Test
    void aDamagedVectorFailsTheChecksum() {
        byte[] blob = DeletionVectorCodec.encode(DeletionVector.of(1));
        int stored = ByteBuffer.wrap(blob).getInt(blob.length - 4);
        blob[blob.length - 6] ^= 0x10;

        assertThatThrownBy(() -> DeletionVectorCodec.decode(blob, SOURCE))
                .hasMessageStartingWith(
                        "Corrupt deletion vector of data file d in index file i: CRC-32"
                                + " mismatch, stored "
                                + String.format("0x%08X", stored)
                                + " but computed 0x");
    }

    @Test
    void aBitmapCountBeyondTheBlobIsNamed() {
        byte[] blob = frame(vector(3, new byte[0]));

        assertThatThrownBy(() -> DeletionVectorCodec.decode(blob, SOURCE))
                .hasMessage(
                        "Corrupt deletion vector of data file d in index file i: bitmap count 3"
                                + " does not fit in the 0 bytes that follow it");
    }

    @Test
    void keysOutOfOrderOrRangeAreNamed() {
        byte[] descending = frame(vector(2, concat(key(2), bitmap(1), key(1), bitmap(1))));
        byte[] repeated = frame(vector(2, concat(key(0), bitmap(1), key(0), bitmap(2))));
        byte[] negative = frame(vector(1, concat(key(-1), bitmap(1))));

        assertThatThrownBy(() -> DeletionVectorCodec.decode(descending, SOURCE))
                .hasMessageEndingWith(": keys are not ascending: key 1 follows key 2");
        assertThatThrownBy(() -> DeletionVectorCodec.decode(repeated, SOURCE))
                .hasMessageEndingWith(": keys are not ascending: key 0 follows key 0");
        assertThatThrownBy(() -> DeletionVectorCodec.decode(negative, SOURCE))
                .hasMessageEndingWith(
                        ": key 4294967295 of bitmap 0 is out of range: keys go from 0 to"
                                + " 2147483646");
    }

    @Test
    void aMalformedRoaringBitmapIsNamed() {
        byte[] wrongCookie = frame(vector(1, concat(key(0), new byte[] {1, 2, 3, 4, 0, 0, 0, 0})));
        byte[] bitmap = bitmap(1, 2, 3);
        byte[] cut = frame(vector(1, concat(key(0), Arrays.copyOf(bitmap, bitmap.length - 1))));

        assertThatThrownBy(() -> DeletionVectorCodec.decode(wrongCookie, SOURCE))
                .hasMessageStartingWith(
                        "Corrupt deletion vector of data file d in index file i: the Roaring"
                                + " bitmap of key 0 is malformed: ");
        assertThatThrownBy(() -> DeletionVectorCodec.decode(cut, SOURCE))
                .hasMessageStartingWith(
                        "Corrupt deletion vector of data file d in index file i: the Roaring"
                                + " bitmap of key 0 ");
    }

    @Test
    void bytesAfterTheLastBitmapAreNamed() {
        byte[] blob = frame(vector(1, concat(key(0), bitmap(1), new byte[] {0, 0, 0})));

        assertThatThrownBy(() -> DeletionVectorCodec.decode(blob, SOURCE))
                .hasMessageEndingWith(": 3 bytes follow the last of 1 bitmaps");
    }

    @Test
    void emptyBitmapsAndGapsBetweenKeysAreRead() throws IOException {
        // Iceberg's writer stores an empty bitmap for every key below the largest one.
        byte[] blob =
                frame(vector(3, concat(key(0), bitmap(), key(2), bitmap(5), key(4), bitmap())));

        DeletionVector vector = DeletionVectorCodec.decode(blob, SOURCE);

        assertThat(positions(vector)).containsExactly(2 * TWO_TO_32 + 5);
        assertThat(vector).isEqualTo(DeletionVector.of(2 * TWO_TO_32 + 5));
    }

    private static DeletionVector roundTrip(DeletionVector vector) throws IOException {
        return DeletionVectorCodec.decode(DeletionVectorCodec.encode(vector), SOURCE);
    }

    /** A blob around {@code vector} with a right length prefix, magic and checksum. */
    static byte[] frame(byte[] vector) {
        ByteBuffer blob = ByteBuffer.allocate(vector.length + 12);
        blob.putInt(vector.length + 4).put(DeletionVectorCodec.MAGIC).put(vector);
        CRC32 crc = new CRC32();
        crc.update(blob.array(), 4, vector.length + 4);
        return blob.putInt((int) crc.getValue()).array();
    }

    private static byte[] vector(long count, byte[] bitmaps) {
        return concat(
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(count).array(),
                bitmaps);
    }

    private static byte[] key(int key) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(key).array();
    }

    private static byte[] bitmap(int... values) {
        RoaringBitmap bitmap = RoaringBitmap.bitmapOf(values);
        ByteBuffer bytes = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(bytes);
        return bytes.array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
