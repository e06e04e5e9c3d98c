package dev.tarn.format.parquet.codec;

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
     * A codec of aircompressor, pure Java: it holds no native memory. Corrupt input fails with an
     * {@link IOException} naming the codec.
     */
    class PureJava implements BlockCodec {
        private final String name;
        private final io.airlift.compress.Compressor compressor;
        private final io.airlift.compress.Decompressor decompressor;

        PureJava(
                String name,
                io.airlift.compress.Compressor compressor,
                io.airlift.compress.Decompressor decompressor) {
            this.name = name;
            this.compressor = compressor;
            this.decompressor = decompressor;
        }

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
                throw new IOException(name + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {}
    }

    /**
     * Parquet's LZ4_RAW: LZ4 blocks without framing, by aircompressor's LZ4 (the codec Parquet's
     * own LZ4_RAW uses). It writes larger files than zstd's fastest level, for about the same CPU.
     */
    final class Lz4 extends PureJava {
        Lz4() {
            super(
                    "lz4",
                    new io.airlift.compress.lz4.Lz4Compressor(),
                    new io.airlift.compress.lz4.Lz4Decompressor());
        }
    }
}
