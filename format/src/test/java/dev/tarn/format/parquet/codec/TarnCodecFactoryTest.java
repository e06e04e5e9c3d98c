package dev.tarn.format.parquet.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A compressed page decompresses to the same bytes however the reader holds it: within one buffer
 * of its column chunk (at an offset), spread over two of them, or in an array.
 */
class TarnCodecFactoryTest {

    /** A page of 300,000 bytes: compressible, but not one repeated byte. */
    private static byte[] page() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 300_000; i++) {
            text.append("row ").append(i * 7919 % 100_003).append(';');
        }
        return text.substring(0, 300_000).getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionCodecName.class,
            names = {"ZSTD", "LZ4_RAW", "GZIP"})
    void decompressesAPageInOneBufferSpreadOverTwoOrInAnArray(CompressionCodecName codec)
            throws Exception {
        byte[] page = page();
        TarnCodecFactory factory = new TarnCodecFactory();
        try {
            byte[] compressed =
                    factory.getCompressor(codec).compress(BytesInput.from(page)).toByteArray();
            ByteBuffer chunk = ByteBuffer.allocate(compressed.length + 10);
            chunk.position(7);
            chunk.put(compressed);
            int half = compressed.length / 2;
            List<BytesInput> shapes =
                    List.of(
                            BytesInput.from(chunk, 7, compressed.length),
                            BytesInput.from(
                                    List.of(
                                            ByteBuffer.wrap(compressed, 0, half).slice(),
                                            ByteBuffer.wrap(
                                                            compressed,
                                                            half,
                                                            compressed.length - half)
                                                    .slice())),
                            BytesInput.from(compressed, 0, compressed.length));
            BytesInputDecompressor decompressor = factory.getDecompressor(codec);
            for (BytesInput shape : shapes) {
                assertThat(decompressor.decompress(shape, page.length).toByteArray())
                        .as("%s page as %s", codec, shape.getClass().getSimpleName())
                        .isEqualTo(page);
            }
        } finally {
            factory.release();
        }
    }
}
