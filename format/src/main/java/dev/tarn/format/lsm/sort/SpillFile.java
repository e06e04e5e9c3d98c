package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyValue;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * A sorted run that a {@link SortBuffer} spilled to a local temporary file: its records in (key,
 * sequence) order, each as {@code [long sequence][int size][size bytes of BinaryRowData]}, the row
 * kind in the row's header. Local scratch, never part of a table: the owner deletes it.
 */
final class SpillFile {

    /** Stream buffer size: large enough that a read or write is one system call per 64 KiB. */
    private static final int IO_BUFFER_BYTES = 64 * 1024;

    private final Path path;
    private final int records;
    private final long sizeBytes;

    private SpillFile(Path path, int records, long sizeBytes) {
        this.path = path;
        this.records = records;
        this.sizeBytes = sizeBytes;
    }

    /** Writes the sorted index's records to a new file in {@code directory}. */
    static SpillFile write(Path directory, SortIndex index, RecordPages pages) throws IOException {
        Path path = Files.createTempFile(directory, "tarn-sort-", ".spill");
        long bytes = 0;
        try (DataOutputStream out =
                new DataOutputStream(
                        new BufferedOutputStream(Files.newOutputStream(path), IO_BUFFER_BYTES))) {
            for (int i = 0; i < index.size(); i++) {
                long address = index.address(i);
                int offset = RecordPages.offset(address);
                int size = pages.segment(address).getInt(offset);
                out.writeLong(index.sequence(i));
                out.writeInt(size);
                out.write(pages.page(address), offset + 4, size);
                bytes += 12 + size;
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
        return new SpillFile(path, index.size(), bytes);
    }

    int records() {
        return records;
    }

    Path path() {
        return path;
    }

    Reader open(int arity) {
        try {
            return new Reader(arity);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open spill file " + path, e);
        }
    }

    void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete spill file " + path, e);
        }
    }

    /** Reads the run back; the returned row is reused by the next call of {@code next()}. */
    final class Reader implements Iterator<KeyValue>, Closeable {

        private final DataInputStream in;
        private final BinaryRowData row;
        private byte[] bytes = new byte[256];
        private MemorySegment[] segments = {MemorySegmentFactory.wrap(bytes)};
        private int remaining = records;

        private Reader(int arity) throws IOException {
            this.in =
                    new DataInputStream(
                            new BufferedInputStream(
                                    Files.newInputStream(path),
                                    (int) Math.max(1, Math.min(IO_BUFFER_BYTES, sizeBytes))));
            this.row = new BinaryRowData(arity);
        }

        @Override
        public boolean hasNext() {
            return remaining > 0;
        }

        @Override
        public KeyValue next() {
            if (remaining == 0) {
                throw new NoSuchElementException("Spill file " + path + " is exhausted");
            }
            try {
                long sequence = in.readLong();
                int size = in.readInt();
                if (size > bytes.length) {
                    bytes = new byte[Math.max(size, bytes.length * 2)];
                    segments = new MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
                }
                in.readFully(bytes, 0, size);
                row.pointTo(segments, 0, size);
                if (--remaining == 0) {
                    in.close();
                }
                return new KeyValue(sequence, row.getRowKind(), row);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read record " + (records - remaining) + " of spill file " + path,
                        e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
