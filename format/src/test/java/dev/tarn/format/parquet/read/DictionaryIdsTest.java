package dev.tarn.format.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/** Ids decoded in bulk equal the ids Parquet's encoder wrote, for every bit width and run shape. */
class DictionaryIdsTest {

    private static final PrimitiveType TYPE = Types.optional(PrimitiveTypeName.INT64).named("v");
    private static final ColumnDescriptor COLUMN =
            new ColumnDescriptor(new String[] {"v"}, TYPE, 0, 1);

    @Test
    void decodesRunsAndPackedGroupsOfEveryWidth() throws Exception {
        Random random = new Random(5);
        for (int size : new int[] {1, 2, 3, 255, 256, 5000, 70_000}) {
            Dictionary dictionary = dictionary(size);
            DictionaryIds reader = DictionaryIds.of(COLUMN, dictionary);
            for (int page = 0; page < 5; page++) {
                int count = 1 + random.nextInt(3000);
                int[] ids = new int[count];
                for (int i = 0; i < count; i++) {
                    // Long runs (RLE) mixed with random stretches (bit-packed).
                    ids[i] = i > 0 && random.nextInt(4) > 0 ? ids[i - 1] : random.nextInt(size);
                }
                // Heap pages at offset 0 and past it (unpacked from the array), direct ones not.
                reader.initFromPage(count, stream(encode(ids, size), page % 3));
                for (int i = 0; i < count; i++) {
                    if (i % 3 == 0) {
                        assertThat(reader.readLong()).isEqualTo(ids[i] * 10L);
                    } else {
                        assertThat(reader.readValueDictionaryId()).isEqualTo(ids[i]);
                    }
                }
                assertThatThrownBy(reader::skip)
                        .isInstanceOf(ParquetDecodingException.class)
                        .hasMessage(
                                "Page ends after "
                                        + count
                                        + " dictionary ids, more values were read");
            }
        }
    }

    @Test
    void anIdOutsideTheDictionaryIsAnError() throws Exception {
        DictionaryIds reader = DictionaryIds.of(COLUMN, dictionary(4));
        assertThatThrownBy(() -> reader.initFromPage(3, stream(encode(new int[] {1, 2, 7}, 8))))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessage("Dictionary id 7 out of a dictionary of 4");
        // Among many ids, in a bit-packed group, at an offset of the page's array.
        int[] ids = new int[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i % 5;
        }
        ids[613] = 6;
        DictionaryIds five = DictionaryIds.of(COLUMN, dictionary(5));
        assertThatThrownBy(() -> five.initFromPage(ids.length, stream(encode(ids, 8), 1)))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessage("Dictionary id 6 out of a dictionary of 5");
    }

    /** A page's values: the bit width of the largest id, then the hybrid encoding. */
    private static byte[] encode(int[] ids, int dictionarySize) throws Exception {
        int bitWidth = BytesUtils.getWidthFromMaxInt(dictionarySize - 1);
        RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(
                        bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
        for (int id : ids) {
            encoder.writeInt(id);
        }
        byte[] encoded =
                BytesInput.concat(BytesInput.from(new byte[] {(byte) bitWidth}), encoder.toBytes())
                        .toByteArray();
        encoder.close();
        return encoded;
    }

    private static ByteBufferInputStream stream(byte[] bytes) {
        return stream(bytes, 0);
    }

    /** {@code bytes} in a heap buffer (0), at an offset of its array (1), or direct (2). */
    private static ByteBufferInputStream stream(byte[] bytes, int kind) {
        if (kind == 1) {
            byte[] padded = new byte[bytes.length + 9];
            System.arraycopy(bytes, 0, padded, 9, bytes.length);
            return ByteBufferInputStream.wrap(ByteBuffer.wrap(padded, 9, bytes.length).slice());
        }
        if (kind == 2) {
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
            direct.put(bytes).flip();
            return ByteBufferInputStream.wrap(direct);
        }
        return ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes));
    }

    /** Values 0, 10, 20, ... */
    private static Dictionary dictionary(int size) throws Exception {
        ByteBuffer plain = ByteBuffer.allocate(size * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < size; i++) {
            plain.putLong(i * 10L);
        }
        DictionaryPage page =
                new DictionaryPage(BytesInput.from(plain.array()), size, Encoding.PLAIN_DICTIONARY);
        return Encoding.PLAIN_DICTIONARY.initDictionary(COLUMN, page);
    }
}
