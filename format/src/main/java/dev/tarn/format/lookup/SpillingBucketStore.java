package dev.tarn.format.lookup;

import dev.tarn.format.lsm.RowBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * A bucket's rows for a lookup join, of any size: in memory ({@link MemoryRows}) up to what the
 * shared {@link LookupBudget} grants, and in sorted runs in local files ({@link SpillRun}, whose
 * class comment describes the file layout) beyond it. When a reservation fails the budget spills
 * the store holding the most memory: its memory rows are written, sorted, as a new run and the
 * memory released; a key removed while older runs exist stays in memory as a tombstone until the
 * next spill. A scan merges memory and runs in index-key order, newest first: memory, then the runs
 * from the newest; a tombstone hides older rows. Past {@value #MAX_RUNS} runs, all are merged into
 * one (tombstones dropped, the old files deleted).
 *
 * <p>Thread-safety: safe for any number of threads. Scans take a shared lock and run concurrently;
 * {@code put}, {@code remove}, spills and merges take the exclusive lock, so a scan sees a store
 * before or after each of them. The lookup's refresh thread may call {@code put}/{@code remove}
 * without any lock of its own; a caller that applies several changes of one commit as one step
 * holds its own per-bucket lock around them. Another store's put may spill this one (it then takes
 * this store's exclusive lock only if it is free at once, so two stores never wait for each other).
 *
 * <p>Just over 400 lines: memory, runs, spill and merge are one lock's domain; split apart, each
 * would need the others' state under that lock.
 */
final class SpillingBucketStore implements BucketStore {

    /** Runs beyond which a spill merges them all into one. */
    static final int MAX_RUNS = 4;

    private final IndexOrder order;
    private final LookupBudget budget;
    private final Path directory;
    private final ReadWriteLock lock;
    private final MemoryRows memory;
    private final RowBytes writerBytes;
    private final ThreadLocal<Scratch> scratch;

    /** Spilled runs, oldest first. */
    private final List<SpillRun> runs = new ArrayList<>();

    private volatile long memoryBytes;
    private volatile long diskBytes;
    private boolean force;

    /** The last reservation refused: one larger than the whole budget is forced at once. */
    private long refused;

    private boolean closed;

    SpillingBucketStore(IndexOrder order, LookupBudget budget, Path directory) {
        this(order, budget, directory, new StripedReadWriteLock());
    }

    /**
     * @param lock the store's lock, which its owner may share (a held bucket's stores and its gets
     *     use one lock, so a get takes one)
     */
    SpillingBucketStore(IndexOrder order, LookupBudget budget, Path directory, ReadWriteLock lock) {
        this.lock = lock;
        this.order = order;
        this.budget = budget;
        this.directory = directory;
        this.memory = new MemoryRows(order, this::reserve, this::release);
        this.writerBytes = new RowBytes(order.rowType());
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(order));
        budget.register(this);
    }

    /**
     * {@inheritDoc}
     *
     * @throws UncheckedIOException if a spill this put needs fails, or does not fit {@link
     *     LookupBudget#DISK_OPTION} (the interface's methods that change the store declare no
     *     checked exception); its message is that of the IOException it wraps
     */
    @Override
    public void put(BinaryRowData row) {
        if (row.getArity() != order.arity()) {
            throw new IllegalArgumentException(
                    String.format(
                            "A lookup store of %s takes rows of %d fields, got one of %d",
                            order.rowType(), order.arity(), row.getArity()));
        }
        lock.writeLock().lock();
        try {
            long prefix = order.prefix(row);
            while (!memory.put(row, prefix)) {
                makeRoom();
            }
        } finally {
            force = false;
            lock.writeLock().unlock();
        }
    }

    @Override
    public void remove(RowData indexKeyOf) {
        lock.writeLock().lock();
        try {
            BinaryRowData key = writerBytes.binary(indexKeyOf);
            long prefix = order.prefix(key);
            while (!memory.remove(key, prefix)) {
                makeRoom();
            }
        } finally {
            force = false;
            lock.writeLock().unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code key} is a row of the store's row type of which only the index-key fields are read;
     * {@code fields} is 1 to the number of index-key fields. Each row given to {@code out} is a
     * view valid during the call only: the caller copies what it keeps, and sets the row kind it
     * needs (a row's kind byte is as it was put while in memory, INSERT once spilled; index-key
     * fields must not be null, see {@link IndexOrder}). {@code out} must not call back into this
     * store's {@code put} or {@code remove}.
     */
    @Override
    public void scan(RowData key, int fields, Consumer<RowData> out) throws IOException {
        if (fields < 1 || fields > order.fields()) {
            throw new IllegalArgumentException(
                    String.format(
                            "A lookup scan matches 1 to %d index-key fields, not %d",
                            order.fields(), fields));
        }
        Scratch s = scratch.get();
        lock.readLock().lock();
        try {
            BinaryRowData binaryKey = s.bytes.binary(key);
            long prefix = order.prefix(binaryKey);
            if (fields == order.fields()) {
                findOne(binaryKey, prefix, s, out);
            } else {
                scanMerged(binaryKey, prefix, fields, out);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Decided by the memory's hash index alone when the base run holds the key, or when nothing
     * else (the run aside, spilled runs) could: then without encoding {@code key} or taking a
     * thread-local scratch. REQUIRES: the caller holds the read lock of the store's lock.
     */
    @Override
    @Nullable
    public BinaryRowData getIndexed(RowData key, BinaryRowData probe, BinaryRowData target) {
        int address = memory.findIndexed(key, probe);
        if (address == MemoryRows.NOT_INDEXED) {
            return UNDECIDED;
        }
        if (address != 0) {
            return address > 0 ? memory.rowAt(address, target) : null;
        }
        return memory.hasAside() || !runs.isEmpty() ? UNDECIDED : null;
    }

    /** An exact get: the newest source that has the key decides. */
    private void findOne(BinaryRowData key, long prefix, Scratch s, Consumer<RowData> out)
            throws IOException {
        int address = memory.find(key, prefix, s.probe);
        if (address != 0) {
            if (address > 0) {
                out.accept(memory.rowAt(address, s.row));
            }
            return;
        }
        for (int r = runs.size() - 1; r >= 0; r--) {
            RunCursor cursor = runs.get(r).cursor(key, prefix, order.fields());
            if (cursor.valid()) {
                if (!cursor.tombstone()) {
                    out.accept(cursor.row());
                }
                return;
            }
        }
    }

    private void scanMerged(BinaryRowData key, long prefix, int fields, Consumer<RowData> out)
            throws IOException {
        List<RunCursor> sources = new ArrayList<>(runs.size() + 2);
        sources.add(memory.cursor(key, prefix, fields, true));
        sources.add(memory.cursor(key, prefix, fields, false));
        for (int r = runs.size() - 1; r >= 0; r--) {
            sources.add(runs.get(r).cursor(key, prefix, fields));
        }
        new MergedCursor(order, sources)
                .forEach(
                        (row, tombstone) -> {
                            if (!tombstone) {
                                out.accept(row);
                            }
                        });
    }

    /**
     * Spills this store if its exclusive lock is free now (called by the budget for another store's
     * reservation).
     *
     * @return whether it did
     */
    boolean trySpill() {
        if (!lock.writeLock().tryLock()) {
            return false;
        }
        try {
            if (closed || memoryBytes == 0) {
                return false;
            }
            spill();
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void makeRoom() {
        long wanted = refused;
        refused = 0;
        if (!budget.couldFit(wanted)) {
            // No spill makes room for it; spilling each other, two stores would take turns for
            // ever.
            force = true;
            return;
        }
        switch (budget.makeRoom(this)) {
            case SPILL_SELF:
                spill();
                break;
            case FORCE:
                force = true;
                break;
            default:
                break;
        }
    }

    /** Writes the memory rows as the newest run and releases the memory. Under the write lock. */
    private void spill() {
        try {
            if (memory.entries() > 0) {
                // The oldest run needs no tombstones: nothing older is there to hide.
                boolean dropTombstones = runs.isEmpty();
                SpillRun run;
                try (SpillRun.Writer writer = new SpillRun.Writer(directory, order, budget)) {
                    BinaryRowData view = new BinaryRowData(order.arity());
                    IOException[] failure = new IOException[1];
                    memory.forEachInOrder(
                            address -> {
                                if (failure[0] != null || (address < 0 && dropTombstones)) {
                                    return;
                                }
                                try {
                                    writer.add(memory.rowAt(address, view), address < 0);
                                } catch (IOException e) {
                                    failure[0] = e;
                                }
                            });
                    if (failure[0] != null) {
                        throw failure[0];
                    }
                    run = writer.finish();
                }
                addRun(run);
            }
            memory.clear();
            memory.keepTombstones(!runs.isEmpty());
            release(memoryBytes);
            if (runs.size() > MAX_RUNS) {
                mergeRuns();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    private void addRun(SpillRun run) throws IOException {
        if (run.blocks() == 0) {
            run.delete();
        } else {
            runs.add(run);
            diskBytes += run.bytes();
        }
    }

    /** Merges every run into one, newest rows winning, tombstones dropped. */
    private void mergeRuns() throws IOException {
        List<RunCursor> sources = new ArrayList<>(runs.size());
        for (int r = runs.size() - 1; r >= 0; r--) {
            sources.add(runs.get(r).cursor(null, 0, 0));
        }
        SpillRun merged;
        try (SpillRun.Writer writer = new SpillRun.Writer(directory, order, budget)) {
            IOException[] failure = new IOException[1];
            new MergedCursor(order, sources)
                    .forEach(
                            (row, tombstone) -> {
                                if (!tombstone && failure[0] == null) {
                                    try {
                                        writer.add(row, false);
                                    } catch (IOException e) {
                                        failure[0] = e;
                                    }
                                }
                            });
            if (failure[0] != null) {
                throw failure[0];
            }
            merged = writer.finish();
        }
        for (SpillRun run : runs) {
            run.delete();
        }
        runs.clear();
        diskBytes = 0;
        addRun(merged);
        memory.keepTombstones(!runs.isEmpty());
    }

    private boolean reserve(long bytes) {
        if (budget.tryReserve(bytes)) {
            memoryBytes += bytes;
            return true;
        }
        if (force) {
            budget.forceReserve(bytes);
            memoryBytes += bytes;
            force = false;
            return true;
        }
        refused = bytes;
        return false;
    }

    private void release(long bytes) {
        memoryBytes -= bytes;
        budget.release(bytes);
    }

    /** Runs on disk now, for tests. */
    int runs() {
        lock.readLock().lock();
        try {
            return runs.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public long memoryBytes() {
        return memoryBytes;
    }

    @Override
    public long diskBytes() {
        return diskBytes;
    }

    /** Releases the memory and deletes the run files. */
    @Override
    public void close() throws IOException {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            budget.forget(this);
            memory.clear();
            release(memoryBytes);
            IOException failure = null;
            for (SpillRun run : runs) {
                try {
                    run.delete();
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
            runs.clear();
            diskBytes = 0;
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** What one scanning thread reuses from scan to scan. */
    private static final class Scratch {
        final RowBytes bytes;
        final BinaryRowData probe;
        final BinaryRowData row;

        Scratch(IndexOrder order) {
            this.bytes = new RowBytes(order.rowType());
            this.probe = new BinaryRowData(order.arity());
            this.row = new BinaryRowData(order.arity());
        }
    }
}
