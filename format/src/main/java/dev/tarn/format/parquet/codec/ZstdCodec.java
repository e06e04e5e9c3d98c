package dev.tarn.format.parquet.codec;

import java.io.IOException;

/**
 * Zstandard block compression for Parquet pages. {@link #best()} is native zstd (zstd-jni, level 1,
 * as fast as zstd gets) where its library loads, else aircompressor's pure-Java zstd, which runs
 * everywhere; both read each other's output, since both write standard zstd frames.
 *
 * <p>Not thread-safe. A codec may hold native memory from its first compression until {@link
 * #close()}; it stays usable after {@code close}, allocating again when it next compresses.
 */
interface ZstdCodec extends BlockCodec {

    /** The compression level of the native codec: zstd's fastest regular level. */
    int NATIVE_LEVEL = 1;

    static ZstdCodec best() {
        return NativeZstd.AVAILABLE ? new NativeZstd() : new JavaZstd();
    }

    /**
     * Native zstd through zstd-jni. Compression and decompression each reuse one native context,
     * created at the first call: creating one per page costs an allocation and a table
     * initialization each time.
     */
    final class NativeZstd implements ZstdCodec {

        /** Whether zstd-jni's native library loaded on this platform. */
        static final boolean AVAILABLE = load();

        private com.github.luben.zstd.ZstdCompressCtx compressor;
        private com.github.luben.zstd.ZstdDecompressCtx decompressor;

        private static boolean load() {
            try {
                com.github.luben.zstd.util.Native.load();
                return com.github.luben.zstd.util.Native.isLoaded();
            } catch (Throwable e) {
                // No native library for this platform (or a sandbox forbids loading it).
                return false;
            }
        }

        @Override
        public int maxCompressedLength(int length) {
            return (int) com.github.luben.zstd.Zstd.compressBound(length);
        }

        @Override
        public int compress(
                byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
                throws IOException {
            if (compressor == null) {
                compressor = new com.github.luben.zstd.ZstdCompressCtx().setLevel(NATIVE_LEVEL);
            }
            try {
                return compressor.compressByteArray(
                        out, outOffset, outLength, in, inOffset, inLength);
            } catch (RuntimeException e) {
                // zstd-jni reports failures as an unchecked ZstdException.
                throw new IOException("zstd: " + e.getMessage(), e);
            }
        }

        @Override
        public int decompress(
                byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
                throws IOException {
            if (decompressor == null) {
                decompressor = new com.github.luben.zstd.ZstdDecompressCtx();
            }
            try {
                return decompressor.decompressByteArray(
                        out, outOffset, outLength, in, inOffset, inLength);
            } catch (RuntimeException e) {
                // zstd-jni reports corrupt input as an unchecked ZstdException.
                throw new IOException("zstd: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            if (compressor != null) {
                compressor.close();
                compressor = null;
            }
            if (decompressor != null) {
                decompressor.close();
                decompressor = null;
            }
        }
    }

    /** aircompressor's pure-Java zstd. */
    final class JavaZstd extends BlockCodec.PureJava implements ZstdCodec {
        JavaZstd() {
            super(
                    "zstd",
                    new io.airlift.compress.zstd.ZstdCompressor(),
                    new io.airlift.compress.zstd.ZstdDecompressor());
        }
    }
}
