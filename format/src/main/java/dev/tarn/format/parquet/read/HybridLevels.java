package dev.tarn.format.parquet.read;

import java.io.IOException;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Definition levels of a data page v2: RLE/bit-packed hybrid without the length prefix v1 pages
 * carry, or nothing at all when the maximum level is 0 (every level is then 0).
 */
final class HybridLevels extends ValuesReader {

    private final RunLengthBitPackingHybridDecoder decoder;

    HybridLevels(int maxLevel, ByteBufferInputStream in) {
        this.decoder =
                maxLevel == 0
                        ? null
                        : new RunLengthBitPackingHybridDecoder(
                                BytesUtils.getWidthFromMaxInt(maxLevel), in);
    }

    @Override
    public int readInteger() {
        if (decoder == null) {
            return 0;
        }
        try {
            return decoder.readInt();
        } catch (IOException e) {
            throw new ParquetDecodingException("Cannot read a definition level", e);
        }
    }

    @Override
    public void skip() {
        readInteger();
    }
}
