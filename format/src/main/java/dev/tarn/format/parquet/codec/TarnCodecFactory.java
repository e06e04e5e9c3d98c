package dev.tarn.format.parquet.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet page codecs without Hadoop: zstd ({@link ZstdCodec#best()}: native where it loads, pure
 * Java elsewhere), LZ4_RAW ({@link BlockCodec.Lz4}, pure Java), gzip from {@code java.util.zip},
 * and uncompressed. Parquet's own {@code CodecFactory} loads Hadoop codecs.
 *
 * <p>Not thread-safe: each writer and each reader owns one instance, because compressors reuse an
 * output buffer (Parquet copies compressed bytes out before the next call, as its own codecs
 * assume) and a reader's column chunks share a decompressor. A zstd codec holds native memory until
 * it, or this factory, is released; the owner releases on every path, finished or aborted
 * (Parquet's file reader releases its factory when it closes).
 */
public final class TarnCodecFactory implements CompressionCodecFactory {

    private final List<Compressor> compressors = new ArrayList<>();
    private final Map<CompressionCodecName, Decompressor> decompressors =
            new EnumMap<>(CompressionCodecName.class);

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case ZSTD, LZ4_RAW, GZIP, UNCOMPRESSED -> {
                Compressor compressor = new Compressor(codec);
                compressors.add(compressor);
                yield compressor;
            }
            default -> throw unsupported(codec);
        };
    }

    /** One decompressor per codec, shared by the column chunks of the file being read. */
    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case ZSTD, LZ4_RAW, GZIP, UNCOMPRESSED ->
                    decompressors.computeIfAbsent(codec, Decompressor::new);
            default -> throw unsupported(codec);
        };
    }

    /** Releases every compressor and decompressor this factory made; they stay usable. */
    @Override
    public void release() {
        for (Compressor compressor : compressors) {
            compressor.release();
        }
        for (Decompressor decompressor : decompressors.values()) {
            decompressor.release();
        }
    }

    /** The block codec of a compressed page codec (zstd's for the stream codecs, unused). */
    private static BlockCodec blockCodec(CompressionCodecName codec) {
        return codec == CompressionCodecName.LZ4_RAW ? new BlockCodec.Lz4() : ZstdCodec.best();
    }

    private static UnsupportedOperationException unsupported(CompressionCodecName codec) {
        return new UnsupportedOperationException(
                "Parquet codec "
                        + codec
                        + " is not supported: Tarn reads and writes ZSTD, LZ4_RAW, GZIP and UNCOMPRESSED");
    }

    /** The class of a {@link BytesInput} over one range of one array. */
    private static final Class<?> ONE_ARRAY = BytesInput.from(new byte[1], 0, 1).getClass();

    /** The class of a {@link BytesInput} over one byte buffer (a page within one chunk buffer). */
    private static final Class<?> ONE_BUFFER = BytesInput.from(ByteBuffer.allocate(1)).getClass();

    /** Compresses pages into one reused buffer. */
    private static final class Compressor implements BytesInputCompressor {
        private final CompressionCodecName codec;
        private final BlockCodec block;
        private final PageBuffer in = new PageBuffer();
        private byte[] out = new byte[0];

        Compressor(CompressionCodecName codec) {
            this.codec = codec;
            this.block = blockCodec(codec);
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return bytes;
            }
            if (codec == CompressionCodecName.GZIP) {
                ByteArrayOutputStream buffer =
                        new ByteArrayOutputStream((int) bytes.size() / 2 + 64);
                try (GZIPOutputStream gzip = new GZIPOutputStream(buffer)) {
                    bytes.writeAllTo(gzip);
                }
                return BytesInput.from(buffer);
            }
            int size = Math.toIntExact(bytes.size());
            byte[] source;
            int offset;
            if (bytes.getClass() == ONE_ARRAY) {
                // A page in one array (Tarn's page encoders write them so): compress it in place.
                ByteBuffer page = bytes.toByteBuffer();
                source = page.array();
                offset = page.arrayOffset() + page.position();
            } else {
                // Gather the page into a reused buffer: Parquet's pages are often several slabs.
                in.reset(size);
                bytes.writeAllTo(in);
                source = in.array();
                offset = 0;
            }
            int max = block.maxCompressedLength(size);
            if (out.length < max) {
                out = new byte[max];
            }
            int length = block.compress(source, offset, size, out, 0, out.length);
            return BytesInput.from(out, 0, length);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        @Override
        public void release() {
            block.close();
        }
    }

    /**
     * Decompresses pages into fresh arrays: decoded pages outlive the call. The column chunks of a
     * row group share it and may be decoded on different threads at once, so each call borrows a
     * scratch buffer and codec of its own from a pool, which grows to the number of threads that
     * ever decompressed at once.
     */
    private static final class Decompressor implements BytesInputDecompressor {
        private final CompressionCodecName codec;
        private final Queue<Scratch> idle = new ConcurrentLinkedQueue<>();
        private final Queue<Scratch> made = new ConcurrentLinkedQueue<>();

        Decompressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        /** A page buffer and a block codec, used by one thread at a time. */
        private record Scratch(PageBuffer in, BlockCodec block) {}

        private Scratch borrow() {
            Scratch scratch = idle.poll();
            if (scratch == null) {
                scratch = new Scratch(new PageBuffer(), blockCodec(codec));
                made.add(scratch);
            }
            return scratch;
        }

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return bytes;
            }
            int size = Math.toIntExact(bytes.size());
            Scratch scratch = borrow();
            try {
                if (bytes.getClass() == ONE_BUFFER || bytes.getClass() == ONE_ARRAY) {
                    // A page within one buffer of the column chunk (most): decompressed from
                    // there, without copying it first.
                    ByteBuffer page = bytes.toByteBuffer();
                    if (page.hasArray()) {
                        return BytesInput.from(
                                decompress(
                                        scratch,
                                        page.array(),
                                        page.arrayOffset() + page.position(),
                                        size,
                                        uncompressedSize));
                    }
                }
                // A page that spans buffers: gathered, straight from its buffers.
                scratch.in.reset(size);
                byte[] gathered = scratch.in.array();
                if (bytes.toInputStream().readNBytes(gathered, 0, size) != size) {
                    throw new IOException(
                            "Corrupt " + codec + " page: fewer than its " + size + " bytes");
                }
                return BytesInput.from(decompress(scratch, gathered, 0, size, uncompressedSize));
            } finally {
                idle.add(scratch);
            }
        }

        @Override
        public void decompress(
                ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                output.put(input.duplicate().limit(input.position() + uncompressedSize));
                return;
            }
            Scratch scratch = borrow();
            try {
                byte[] source;
                int offset;
                if (input.hasArray()) {
                    source = input.array();
                    offset = input.arrayOffset() + input.position();
                } else {
                    scratch.in.reset(compressedSize);
                    byte[] copy = scratch.in.array();
                    input.duplicate().get(copy, 0, compressedSize);
                    source = copy;
                    offset = 0;
                }
                output.put(
                        decompress(scratch, source, offset, compressedSize, uncompressedSize),
                        0,
                        uncompressedSize);
            } finally {
                idle.add(scratch);
            }
        }

        private byte[] decompress(
                Scratch scratch, byte[] in, int offset, int length, int uncompressedSize)
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
                    actual = scratch.block.decompress(in, offset, length, out, 0, uncompressedSize);
                } catch (IOException | RuntimeException e) {
                    throw new IOException("Corrupt " + codec + " page: " + e.getMessage(), e);
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
        public void release() {
            for (Scratch scratch : made) {
                scratch.block.close();
            }
        }
    }

    /** A growable byte buffer, reused for every page a compressor sees. */
    private static final class PageBuffer extends java.io.OutputStream {
        private byte[] bytes = new byte[0];
        private int length;

        void reset(int capacity) {
            if (bytes.length < capacity) {
                bytes = new byte[capacity];
            }
            length = 0;
        }

        byte[] array() {
            return bytes;
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[length++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, length, len);
            length += len;
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }
}
