package dev.tarn.format.lsm.sort;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.types.RowKind;

/**
 * The write buffer of one bucket: key values kept as binary rows in heap pages, with a primitive
 * index of (key prefix, address, sequence) that is sorted on demand, all within a capacity in bytes
 * ({@code write-buffer-size}; pages plus 24 bytes of index per record). Iteration yields every
 * record in (key, sequence) order, versions of a key not merged.
 *
 * <p>A spillable buffer that fills up sorts its records into a {@link SpillFile} in a local
 * directory and starts over; iteration then interleaves all spilled runs with the memory part.
 * Spill files are deleted by {@link #clear()} and {@link #close()}.
 *
 * <p>{@code put} copies the row and allocates nothing in the steady state. Not thread-safe. An
 * iterator's rows are reused by its next {@code next()}; a {@code put}, {@code clear} or {@code
 * close} invalidates open iterators.
 */
public final class SortBuffer implements Closeable {

    /** Smallest capacity accepted: below it a buffer would flush every few rows. */
    static final long MIN_CAPACITY = 1024;

    /**
     * Largest page: big enough for one system allocation per 64 KiB of rows, small enough to waste
     * little at a page's end.
     */
    private static final int MAX_PAGE_BYTES = 64 * 1024;

    private final KeyComparator keys;
    private final long capacity;
    @Nullable private final Path spillDirectory;
    private final int maxSpillFiles;
    private final RowCopier copier;
    private final RecordPages pages;
    private final SortIndex index;
    private final BinaryRowData viewA;
    private final BinaryRowData viewB;
    private final List<SpillFile> spills = new ArrayList<>();
    private final List<SpillFile.Reader> openReaders = new ArrayList<>();
    private long spilledRecords;
    private boolean sorted = true;

    private SortBuffer(
            KeyComparator keys, long capacity, @Nullable Path spillDirectory, int maxSpillFiles) {
        if (capacity < MIN_CAPACITY) {
            throw new IllegalArgumentException(
                    String.format(
                            "Sort buffer capacity (write-buffer-size) of %d bytes is below the"
                                    + " minimum of %d bytes",
                            capacity, MIN_CAPACITY));
        }
        this.keys = keys;
        this.capacity = capacity;
        this.spillDirectory = spillDirectory;
        this.maxSpillFiles = maxSpillFiles;
        this.copier = new RowCopier(keys.rowType());
        this.pages = new RecordPages((int) Math.min(MAX_PAGE_BYTES, Math.max(128, capacity / 8)));
        this.index = new SortIndex(keys.prefixDecides(), this::compareKeys);
        this.viewA = new BinaryRowData(keys.rowType().getFieldCount());
        this.viewB = new BinaryRowData(keys.rowType().getFieldCount());
    }

    /** A buffer whose {@code put} returns false once {@code capacityBytes} are used. */
    public static SortBuffer inMemory(KeyComparator keys, long capacityBytes) {
        return new SortBuffer(keys, capacityBytes, null, 0);
    }

    /**
     * A buffer that, when full, spills its records to a new file in {@code spillDirectory} (which
     * must exist), up to {@code maxSpillFiles} files; only then does {@code put} return false.
     */
    public static SortBuffer spillable(
            KeyComparator keys, long capacityBytes, Path spillDirectory, int maxSpillFiles) {
        if (maxSpillFiles < 1) {
            throw new IllegalArgumentException(
                    "Maximum number of spill files must be at least 1, got " + maxSpillFiles);
        }
        return new SortBuffer(keys, capacityBytes, spillDirectory, maxSpillFiles);
    }

    /**
     * Adds one change: copies {@code row} (the full table row) with {@code kind} and {@code
     * sequence}. Returns false, having added nothing, when the buffer is full and cannot spill: the
     * caller flushes and clears it, then puts again.
     *
     * @throws IllegalArgumentException if the row alone exceeds the capacity
     * @throws UncheckedIOException if spilling fails
     */
    public boolean put(long sequence, RowKind kind, RowData row) {
        int size = copier.prepare(row, kind);
        int recordSize = 4 + size;
        if (!hasRoom(recordSize)) {
            if (index.size() == 0) {
                throw tooLarge(size);
            }
            if (spillDirectory == null || spills.size() >= maxSpillFiles) {
                return false;
            }
            spill();
            if (!hasRoom(recordSize)) {
                throw tooLarge(size);
            }
        }
        long address = pages.allocate(recordSize);
        int offset = RecordPages.offset(address);
        pages.segment(address).putInt(offset, size);
        copier.writePrepared(pages.page(address), offset + 4);
        viewA.pointTo(pages.segments(address), offset + 4, size);
        index.add(keys.prefix(viewA), address, sequence);
        sorted = false;
        return true;
    }

    /**
     * All records in (key, sequence) order; equal (key, sequence) in insertion order. The row of a
     * returned key value is reused by the iterator's next {@code next()}.
     */
    public Iterator<KeyValue> iterator() {
        closeReaders();
        sort();
        Iterator<KeyValue> memory = new MemoryIterator(false);
        if (spills.isEmpty()) {
            return memory;
        }
        List<Iterator<KeyValue>> runs = new ArrayList<>(spills.size() + 1);
        for (SpillFile spill : spills) {
            SpillFile.Reader reader = spill.open(keys.rowType().getFieldCount());
            openReaders.add(reader);
            runs.add(reader);
        }
        runs.add(memory);
        return new InterleavingIterator(keys, runs);
    }

    /**
     * As {@link #iterator()} for a buffer that has not spilled, but every returned row is its own
     * view of the buffer's memory: it stays valid until the buffer is changed, so a consumer may
     * keep it without copying.
     *
     * @throws IllegalStateException if the buffer has spilled
     */
    public Iterator<KeyValue> stableIterator() {
        if (!spills.isEmpty()) {
            throw new IllegalStateException(
                    "A sort buffer that spilled " + spills.size() + " files has no stable rows");
        }
        closeReaders();
        sort();
        return new MemoryIterator(true);
    }

    /**
     * All records with the versions of each key folded by {@code merge}, in key order; results that
     * are tombstones are kept. A buffer that did not spill is merged in place ({@link
     * StableRunMerge}), one that did is copied key by key ({@link MergeIterator}). A returned key
     * value is valid until the next {@code hasNext()} or {@code next()}; the same invalidation as
     * for {@link #iterator()} applies.
     */
    public Iterator<KeyValue> merged(MergeFunction merge) {
        return spills.isEmpty()
                ? new StableRunMerge(stableIterator(), keys, merge, false)
                : new MergeIterator(List.of(iterator()), keys, merge, false);
    }

    /** Number of records held, in memory and spilled. */
    public long size() {
        return spilledRecords + index.size();
    }

    /** Bytes of the capacity in use: record pages plus index entries. */
    public long memoryUsed() {
        return pages.usedBytes() + (long) index.size() * SortIndex.ENTRY_BYTES;
    }

    public int spillFileCount() {
        return spills.size();
    }

    /**
     * Moves the in-memory records to a new spill file and frees their memory, so another buffer can
     * use it. Returns false, changing nothing, if the buffer is not spillable, holds no records in
     * memory, or has used up its spill files.
     *
     * @throws UncheckedIOException if spilling fails
     */
    public boolean spillAndRelease() {
        if (spillDirectory == null || index.size() == 0 || spills.size() >= maxSpillFiles) {
            return false;
        }
        closeReaders();
        spill();
        pages.release();
        index.release();
        return true;
    }

    /** Frees the memory pages of a buffer holding no records in memory (after clear). */
    public void releaseMemory() {
        if (index.size() != 0) {
            throw new IllegalStateException(
                    "Cannot release the memory of a sort buffer holding "
                            + index.size()
                            + " records; clear or spill it first");
        }
        pages.release();
        index.release();
    }

    /** Forgets all records and deletes spill files; keeps memory pages for reuse. */
    public void clear() {
        closeReaders();
        for (SpillFile spill : spills) {
            spill.delete();
        }
        spills.clear();
        spilledRecords = 0;
        pages.reset();
        index.clear();
        sorted = true;
    }

    /** As {@link #clear()}, and frees the memory. */
    @Override
    public void close() {
        clear();
        pages.release();
        index.release();
    }

    private boolean hasRoom(int recordSize) {
        long after =
                pages.usedBytes()
                        + pages.growthFor(recordSize)
                        + (long) (index.size() + 1) * SortIndex.ENTRY_BYTES;
        return after <= capacity;
    }

    private void spill() {
        sort();
        try {
            spills.add(SpillFile.write(spillDirectory, index, pages));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot spill %d records of a sort buffer to %s",
                            index.size(), spillDirectory),
                    e);
        }
        spilledRecords += index.size();
        pages.reset();
        index.clear();
    }

    private void sort() {
        if (!sorted) {
            index.sort();
            sorted = true;
        }
    }

    private int compareKeys(long addressA, long addressB) {
        point(viewA, addressA);
        point(viewB, addressB);
        return keys.compare(viewA, viewB);
    }

    /** Points a view at a record; passing the page's segment array avoids allocating one. */
    private void point(BinaryRowData view, long address) {
        MemorySegment[] segments = pages.segments(address);
        int offset = RecordPages.offset(address);
        view.pointTo(segments, offset + 4, segments[0].getInt(offset));
    }

    private void closeReaders() {
        for (SpillFile.Reader reader : openReaders) {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close a spill file reader", e);
            }
        }
        openReaders.clear();
    }

    private IllegalArgumentException tooLarge(int size) {
        return new IllegalArgumentException(
                String.format(
                        "Row of %d bytes does not fit in an empty sort buffer of %d bytes"
                                + " (write-buffer-size)",
                        size, capacity));
    }

    /** The in-memory records in index order, through one reused row view. */
    private final class MemoryIterator implements Iterator<KeyValue> {

        private final boolean stable;
        private final BinaryRowData row = new BinaryRowData(keys.rowType().getFieldCount());
        private int next;

        private MemoryIterator(boolean stable) {
            this.stable = stable;
        }

        @Override
        public boolean hasNext() {
            return next < index.size();
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException(
                        "Sort buffer iterator is past its " + index.size() + " records");
            }
            BinaryRowData view = stable ? new BinaryRowData(row.getArity()) : row;
            point(view, index.address(next));
            return new KeyValue(index.sequence(next++), view.getRowKind(), view);
        }
    }
}
