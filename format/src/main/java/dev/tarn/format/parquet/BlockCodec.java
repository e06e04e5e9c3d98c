package dev.tarn.format.parquet;

import java.io.IOException;

/**
 * Compresses and decompresses one Parquet page as a block, between arrays. Not thread-safe: each
 * compressor and decompressor of a {@link TarnCodecFactory} owns one.
 */
interface BlockCodec extends AutoCloseable {

    int maxCompressedLength(int length);

    /** Returns the number of bytes written to {@code out}. */
    int compress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
            throws IOException;

    /** Returns the number of bytes written to {@code out}. */
    int decompress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
            throws IOException;

    /** Frees the native memory this codec holds, if any; never throws. */
    @Override
    void close();

    /**
     * Parquet's LZ4_RAW: LZ4 blocks without framing, by aircompressor's pure-Java LZ4 (the codec
     * Parquet's own LZ4_RAW uses). It writes larger files than zstd's fastest level, for about the
     * same CPU.
     */
    final class Lz4 implements BlockCodec {
        private final io.airlift.compress.lz4.Lz4Compressor compressor =
                new io.airlift.compress.lz4.Lz4Compressor();
        private final io.airlift.compress.lz4.Lz4Decompressor decompressor =
                new io.airlift.compress.lz4.Lz4Decompressor();

        @Override
        public int maxCompressedLength(int length) {
            return compressor.maxCompressedLength(length);
        }

        @Override
        public int compress(
                byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength) {
            return compressor.compress(in, inOffset, inLength, out, outOffset, outLength);
        }

        @Override
        public int decompress(
                byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
                throws IOException {
            try {
                return decompressor.decompress(in, inOffset, inLength, out, outOffset, outLength);
            } catch (RuntimeException e) {
                // aircompressor reports corrupt input as an unchecked MalformedInputException.
                throw new IOException("lz4: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {}
    }
}
