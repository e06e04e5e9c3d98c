package dev.tarn.format.lookup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.types.RowKind;

/**
 * A sorted run of a {@link SpillingBucketStore} in a local file, and its sparse index in memory.
 * The file layout (local scratch of one job, deleted on close, never read by another process, so
 * not part of SPEC.md) is a sequence of blocks and nothing else:
 *
 * <pre>
 *   block   = [int payload bytes][int CRC32C of the payload][payload]
 *   payload = rows, each [int size][size bytes of a Flink BinaryRowData of the store's row type]
 * </pre>
 *
 * Ints are big-endian. Rows are in index-key order, one per index key; a row's kind byte is {@code
 * INSERT} for a row and {@code DELETE} for a tombstone (a key removed since an older run). A block
 * closes once its payload reaches {@value #BLOCK_BYTES} bytes (a larger row makes a block alone).
 * The index keeps, per block, its offset, its length, its first row and that row's prefix: a seek
 * is a binary search over the blocks' first rows, then one block read (through the block cache) and
 * a binary search over its rows. The sort buffer's {@code SpillFile} is not reused: it is a stream
 * read once from the start, without blocks, checksums or seeks. Thread-safe once written: reads are
 * positional.
 */
final class SpillRun {

    /**
     * Payload bytes a block closes at. Small, as LevelDB's: a get that misses the block cache
     * reads, checks and decodes one block per run, so its cost grows with the block's size.
     */
    static final int BLOCK_BYTES = 4 * 1024;

    private static final int HEADER = 8;

    private final Path path;
    private final FileChannel channel;
    private final IndexOrder order;
    private final LookupBudget budget;
    private final long[] blockOffsets;
    private final long[] firstPrefixes;
    private final BinaryRowData[] firstRows;
    private final long bytes;

    private SpillRun(Writer w) {
        this.path = w.path;
        this.channel = w.channel;
        this.order = w.order;
        this.budget = w.budget;
        this.blockOffsets = Arrays.copyOf(w.blockOffsets, w.blocks + 1);
        this.blockOffsets[w.blocks] = w.position;
        this.firstPrefixes = Arrays.copyOf(w.firstPrefixes, w.blocks);
        this.firstRows = Arrays.copyOf(w.firstRows, w.blocks);
        this.bytes = w.position;
    }

    Path path() {
        return path;
    }

    /** Bytes of the file. */
    long bytes() {
        return bytes;
    }

    int blocks() {
        return firstRows.length;
    }

    /** Block {@code i}, from the block cache or read. */
    SpillBlock block(int i) throws IOException {
        try {
            return budget.blocks().get(new BlockKey(this, i), k -> readUnchecked(i));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Block {@code i}, read from the file (a merge reads each once: no caching). */
    SpillBlock read(int i) throws IOException {
        long offset = blockOffsets[i];
        int length = (int) (blockOffsets[i + 1] - offset);
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, offset + buffer.position()) < 0) {
                throw corrupt(offset, "it ends early");
            }
        }
        int payload = buffer.getInt(0);
        if (payload != length - HEADER) {
            throw corrupt(
                    offset,
                    "its header says " + payload + " payload bytes, not " + (length - HEADER));
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), HEADER, payload);
        int expected = buffer.getInt(4);
        if ((int) crc.getValue() != expected) {
            throw corrupt(
                    offset,
                    String.format(
                            "its checksum is %08x, the block header says %08x",
                            (int) crc.getValue(), expected));
        }
        return new SpillBlock(Arrays.copyOfRange(buffer.array(), HEADER, length), order);
    }

    private SpillBlock readUnchecked(int i) {
        try {
            return read(i);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private IOException corrupt(long offset, String reason) {
        return new IOException(
                "Lookup spill file "
                        + path
                        + " is corrupt: the block at offset "
                        + offset
                        + " is unreadable, "
                        + reason);
    }

    /**
     * A cursor at the first entry whose first {@code fields} index-key fields are not below those
     * of {@code key}, valid while they are equal; {@code fields} 0 walks the whole run uncached.
     */
    RunCursor cursor(RowData key, long prefix, int fields) throws IOException {
        return new Cursor(key, prefix, fields);
    }

    /** Closes and deletes the file, and drops its blocks from the cache. */
    void delete() throws IOException {
        for (int i = 0; i < blocks(); i++) {
            budget.blocks().invalidate(new BlockKey(this, i));
        }
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(path);
            budget.releaseDisk(bytes);
        }
    }

    /** The cache key of one block of one run (runs compare by identity). */
    record BlockKey(SpillRun run, int block) {}

    private final class Cursor implements RunCursor {
        private final RowData key;
        private final long prefix;
        private final int fields;
        private final boolean cached;
        private final BinaryRowData view;
        private SpillBlock block;
        private int blockIndex;
        private int at;

        Cursor(RowData key, long prefix, int fields) throws IOException {
            this.key = key;
            this.prefix = prefix;
            this.fields = fields;
            this.cached = fields > 0;
            this.view = new BinaryRowData(order.arity());
            if (firstRows.length == 0) {
                return;
            }
            int b = 0;
            if (fields > 0) {
                // The last block whose first row orders before the key: matches may start in it.
                int lo = 0;
                int hi = firstRows.length - 1;
                b = -1;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    if (order.compare(firstPrefixes[mid], firstRows[mid], prefix, key, fields)
                            < 0) {
                        b = mid;
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                b = Math.max(b, 0);
            }
            load(b);
            if (fields > 0) {
                int lo = 0;
                int hi = block.rows();
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (order.compare(
                                    block.prefix(mid), block.rowAt(mid, view), prefix, key, fields)
                            < 0) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                at = lo;
                skipEmpty();
            }
        }

        private void load(int b) throws IOException {
            blockIndex = b;
            block = cached ? block(b) : read(b);
            at = 0;
        }

        private void skipEmpty() throws IOException {
            while (block != null && at == block.rows()) {
                if (blockIndex + 1 < firstRows.length) {
                    load(blockIndex + 1);
                } else {
                    block = null;
                }
            }
        }

        @Override
        public boolean valid() {
            if (block == null) {
                return false;
            }
            return fields == 0
                    || order.compare(block.prefix(at), block.rowAt(at, view), prefix, key, fields)
                            == 0;
        }

        @Override
        public BinaryRowData row() {
            return block.rowAt(at, view);
        }

        @Override
        public long prefix() {
            return block.prefix(at);
        }

        @Override
        public boolean tombstone() {
            return block.tombstone(at);
        }

        @Override
        public void next() throws IOException {
            at++;
            skipEmpty();
        }
    }

    /**
     * Writes a run: rows in index-key order, block by block, each block's bytes reserved from the
     * budget's disk before it is written. Not thread-safe.
     */
    static final class Writer implements AutoCloseable {
        private final Path path;
        private final FileChannel channel;
        private final IndexOrder order;
        private final LookupBudget budget;
        private final CRC32C crc = new CRC32C();
        private ByteBuffer buffer = ByteBuffer.allocate(HEADER + BLOCK_BYTES + 1024);
        private long[] blockOffsets = new long[16];
        private long[] firstPrefixes = new long[16];
        private BinaryRowData[] firstRows = new BinaryRowData[16];
        private int blocks;
        private long position;
        private boolean finished;

        Writer(Path directory, IndexOrder order, LookupBudget budget) throws IOException {
            Files.createDirectories(directory);
            this.path = Files.createTempFile(directory, "tarn-lookup-", ".run");
            this.channel =
                    FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            this.order = order;
            this.budget = budget;
            buffer.position(HEADER);
        }

        /** Appends a row (or a tombstone: its key row), after every row added before it. */
        void add(BinaryRowData row, boolean tombstone) throws IOException {
            int size = row.getSizeInBytes();
            if (buffer.position() > HEADER && buffer.position() - HEADER + 4 + size > BLOCK_BYTES) {
                flush();
            }
            if (buffer.position() == HEADER) {
                startBlock(row);
            }
            if (buffer.remaining() < 4 + size) {
                ByteBuffer larger = ByteBuffer.allocate(buffer.position() + 4 + size);
                buffer.flip();
                larger.put(buffer);
                buffer = larger;
            }
            buffer.putInt(size);
            int at = buffer.position();
            BinarySegmentUtils.copyToBytes(
                    row.getSegments(), row.getOffset(), buffer.array(), at, size);
            buffer.array()[at] = (tombstone ? RowKind.DELETE : RowKind.INSERT).toByteValue();
            buffer.position(at + size);
        }

        private void startBlock(BinaryRowData row) {
            if (blocks == firstRows.length) {
                blockOffsets = Arrays.copyOf(blockOffsets, blocks * 2 + 1);
                firstPrefixes = Arrays.copyOf(firstPrefixes, blocks * 2);
                firstRows = Arrays.copyOf(firstRows, blocks * 2);
            }
            byte[] copy = new byte[row.getSizeInBytes()];
            BinarySegmentUtils.copyToBytes(
                    row.getSegments(), row.getOffset(), copy, 0, copy.length);
            BinaryRowData first = new BinaryRowData(order.arity());
            first.pointTo(MemorySegmentFactory.wrap(copy), 0, copy.length);
            firstRows[blocks] = first;
            firstPrefixes[blocks] = order.prefix(first);
            blockOffsets[blocks] = position;
        }

        private void flush() throws IOException {
            int length = buffer.position();
            budget.reserveDisk(length);
            position += length;
            int payload = length - HEADER;
            crc.reset();
            crc.update(buffer.array(), HEADER, payload);
            buffer.putInt(0, payload);
            buffer.putInt(4, (int) crc.getValue());
            buffer.flip();
            long at = blockOffsets[blocks];
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
            blocks++;
            buffer.clear();
            buffer.position(HEADER);
        }

        /** The run written; empty runs are allowed (no blocks). */
        SpillRun finish() throws IOException {
            if (buffer.position() > HEADER) {
                flush();
            }
            finished = true;
            return new SpillRun(this);
        }

        /** Abandons an unfinished run: closes and deletes its file, gives back its disk bytes. */
        @Override
        public void close() throws IOException {
            if (!finished) {
                try {
                    channel.close();
                } finally {
                    Files.deleteIfExists(path);
                    budget.releaseDisk(position);
                }
            }
        }
    }
}
