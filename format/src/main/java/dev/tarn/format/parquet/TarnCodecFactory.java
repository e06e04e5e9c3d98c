package dev.tarn.format.parquet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet page codecs without Hadoop: zstd ({@link ZstdCodec#best()}: native where it loads, pure
 * Java elsewhere), gzip from {@code java.util.zip}, and uncompressed. Parquet's own {@code
 * CodecFactory} loads Hadoop codecs.
 *
 * <p>Not thread-safe: each writer and each reader owns one instance, because compressors reuse an
 * output buffer (Parquet copies compressed bytes out before the next call, as its own codecs
 * assume).
 */
final class TarnCodecFactory implements CompressionCodecFactory {

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case ZSTD, GZIP, UNCOMPRESSED -> new Compressor(codec);
            default -> throw unsupported(codec);
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case ZSTD, GZIP, UNCOMPRESSED -> new Decompressor(codec);
            default -> throw unsupported(codec);
        };
    }

    @Override
    public void release() {}

    private static UnsupportedOperationException unsupported(CompressionCodecName codec) {
        return new UnsupportedOperationException(
                "Parquet codec "
                        + codec
                        + " is not supported: Tarn reads and writes ZSTD, GZIP and UNCOMPRESSED");
    }

    /** Compresses pages into one reused buffer. */
    private static final class Compressor implements BytesInputCompressor {
        private final CompressionCodecName codec;
        private final ZstdCodec zstd = ZstdCodec.best();
        private byte[] out = new byte[0];

        Compressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return bytes;
            }
            byte[] in = bytes.toByteArray();
            if (codec == CompressionCodecName.GZIP) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream(in.length / 2 + 64);
                try (GZIPOutputStream gzip = new GZIPOutputStream(buffer)) {
                    gzip.write(in);
                }
                return BytesInput.from(buffer);
            }
            int max = zstd.maxCompressedLength(in.length);
            if (out.length < max) {
                out = new byte[max];
            }
            int length = zstd.compress(in, 0, in.length, out, 0, out.length);
            return BytesInput.from(out, 0, length);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        @Override
        public void release() {}
    }

    /** Decompresses pages into fresh arrays: decoded pages outlive the call. */
    private static final class Decompressor implements BytesInputDecompressor {
        private final CompressionCodecName codec;
        private final ZstdCodec zstd = ZstdCodec.best();

        Decompressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return bytes;
            }
            byte[] in = bytes.toByteArray();
            return BytesInput.from(decompress(in, 0, in.length, uncompressedSize));
        }

        @Override
        public void decompress(
                ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.duplicate().get(in);
            byte[] decoded =
                    codec == CompressionCodecName.UNCOMPRESSED
                            ? in
                            : decompress(in, 0, compressedSize, uncompressedSize);
            output.put(decoded, 0, uncompressedSize);
        }

        private byte[] decompress(byte[] in, int offset, int length, int uncompressedSize)
                throws IOException {
            byte[] out = new byte[uncompressedSize];
            int actual;
            if (codec == CompressionCodecName.GZIP) {
                try (GZIPInputStream gzip =
                        new GZIPInputStream(new ByteArrayInputStream(in, offset, length))) {
                    actual = gzip.readNBytes(out, 0, uncompressedSize);
                }
            } else {
                try {
                    actual = zstd.decompress(in, offset, length, out, 0, uncompressedSize);
                } catch (RuntimeException e) {
                    throw new IOException("Corrupt zstd page: " + e.getMessage(), e);
                }
            }
            if (actual != uncompressedSize) {
                throw new IOException(
                        "Corrupt "
                                + codec
                                + " page: expected "
                                + uncompressedSize
                                + " bytes after decompression, got "
                                + actual);
            }
            return out;
        }

        @Override
        public void release() {}
    }
}
