package dev.tarn.format.lookup;

import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * Reads a table's rows for a {@link TableLookup}, outside any bucket's lock: the current rows of
 * buckets as of a snapshot (merged, deletion vectors applied, the filter pushed), each bucket on
 * one of {@code read.decode-threads} threads, into new {@link HeldBucket}s; and the rows of one
 * snapshot's change splits, as owned copies, for the lookup to apply under the bucket's lock.
 */
final class BucketLoader {

    /** A loading thread looks whether to pause every this many rows, plus one (a bit mask). */
    private static final int PAUSE_CHECK_ROWS = (1 << 12) - 1;

    private final TableContext table;
    private final LookupLayout layout;
    private final Supplier<HeldBucket> buckets;
    @Nullable private final Predicate filter;

    BucketLoader(
            TableContext table,
            LookupLayout layout,
            Supplier<HeldBucket> buckets,
            @Nullable Predicate filter) {
        this.table = table;
        this.layout = layout;
        this.buckets = buckets;
        this.filter = filter;
    }

    HeldBucket newBucket() {
        return buckets.get();
    }

    private TableRead read() {
        return new TableRead(table).withReadType(layout.readType).withFilter(filter);
    }

    /**
     * The buckets of {@code snapshot} that {@code holds} accepts (and, unless null, {@code only}
     * names), loaded; a bucket without rows is absent.
     */
    Map<BucketId, HeldBucket> load(
            Snapshot snapshot,
            java.util.function.Predicate<BucketId> holds,
            @Nullable Set<BucketId> only)
            throws IOException {
        Loading loading = start(snapshot, holds, only, null);
        try {
            return loading.awaitAll();
        } catch (IOException | RuntimeException e) {
            loading.cancel();
            throw e;
        }
    }

    /**
     * Starts loading the buckets {@link #load} would, on {@code read.decode-threads} threads, and
     * returns at once. Each bucket loaded is handed to {@code loaded} (which then owns it) if not
     * null, else kept for {@link Loading#awaitAll}.
     */
    Loading start(
            Snapshot snapshot,
            java.util.function.Predicate<BucketId> holds,
            @Nullable Set<BucketId> only,
            @Nullable BiConsumer<BucketId, HeldBucket> loaded)
            throws IOException {
        Map<BucketId, List<Split>> splits = new LinkedHashMap<>();
        for (Split split : new TableScan(table).withFilter(filter).plan(snapshot).splits()) {
            BucketId id = new BucketId(split.partition(), split.bucket());
            if (holds.test(id) && (only == null || only.contains(id))) {
                splits.computeIfAbsent(id, b -> new ArrayList<>()).add(split);
            }
        }
        return new Loading(splits, loaded);
    }

    /**
     * One load of several buckets under way. The buckets wait in plan order for a free thread. A
     * bucket {@link #await}ed is demanded: if no thread has started it, the awaiting thread loads
     * it itself, and while any bucket is demanded the threads loading buckets nobody waits for
     * pause, so a lookup's first get waits for its own bucket, loaded with the machine to itself,
     * rather than for all. The first failure fails every bucket not yet loaded and closes every
     * bucket this load still owns, so none holds budget or local files.
     */
    final class Loading {
        private final Map<BucketId, List<Split>> splits;
        @Nullable private final BiConsumer<BucketId, HeldBucket> handOver;
        private final Map<BucketId, CompletableFuture<HeldBucket>> futures = new LinkedHashMap<>();
        private final CompletableFuture<Void> all;
        private final ExecutorService pool;

        /** Guarded by this: buckets not started, next first; buckets made and still owned here. */
        private final Deque<BucketId> waiting;

        private final List<HeldBucket> owned = new ArrayList<>();

        /** Guarded by this: buckets awaited and not yet loaded. */
        private final Set<BucketId> demanded = new HashSet<>();

        /** Whether {@link #demanded} is not empty: read by loading threads without the lock. */
        private volatile boolean anyDemanded;

        private boolean failed;

        private Loading(
                Map<BucketId, List<Split>> splits,
                @Nullable BiConsumer<BucketId, HeldBucket> handOver) {
            this.splits = splits;
            this.handOver = handOver;
            this.waiting = new ArrayDeque<>(splits.keySet());
            splits.keySet().forEach(id -> futures.put(id, new CompletableFuture<>()));
            this.all = CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new));
            int threads = Math.max(1, Math.min(table.config().decodeThreads(), splits.size()));
            this.pool =
                    Executors.newFixedThreadPool(
                            threads,
                            r -> {
                                Thread t = new Thread(r, "tarn-lookup-load-" + table.name());
                                t.setDaemon(true);
                                return t;
                            });
            for (int i = 0; i < threads; i++) {
                pool.execute(this::work);
            }
            pool.shutdown();
        }

        private void work() {
            for (BucketId id = next(); id != null; id = next()) {
                if (!loadOne(id)) {
                    return;
                }
            }
        }

        /** Loads bucket {@code id} on this thread; false if this load failed. */
        private boolean loadOne(BucketId id) {
            try {
                HeldBucket bucket = load(id);
                if (!keep(bucket)) {
                    return false;
                }
                if (handOver != null) {
                    handOver.accept(id, bucket);
                }
                futures.get(id).complete(bucket);
                return true;
            } catch (IOException | RuntimeException | Error e) {
                fail(e);
                return false;
            }
        }

        private HeldBucket load(BucketId id) throws IOException {
            HeldBucket bucket = newBucket();
            TableRead read = read();
            // No get sees the bucket before it is loaded: holding its lock throughout makes each
            // put's own locking a re-entry (another store's put still spills it only when the
            // lock is free).
            bucket.lock.writeLock().lock();
            try {
                int rows = 0;
                for (Split split : splits.get(id)) {
                    try (TableRead.SplitReader reader = read.open(split)) {
                        for (RowData row = reader.next(); row != null; row = reader.next()) {
                            bucket.apply(row);
                            if ((++rows & PAUSE_CHECK_ROWS) == 0 && anyDemanded) {
                                // Paused, the bucket's lock is free, so a bucket being awaited
                                // can spill this one to make room (else both would wait).
                                bucket.lock.writeLock().unlock();
                                try {
                                    pauseUnlessDemanded(id);
                                } finally {
                                    bucket.lock.writeLock().lock();
                                }
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        bucket.close();
                        throw e;
                    }
                }
            } finally {
                bucket.lock.writeLock().unlock();
            }
            return bucket;
        }

        /** Waits while another bucket is demanded and {@code id} is not (or the load failed). */
        private synchronized void pauseUnlessDemanded(BucketId id) throws IOException {
            while (!failed && !demanded.isEmpty() && !demanded.contains(id)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException(
                            "Interrupted while loading bucket " + id + " of table " + table.name());
                }
            }
            if (failed) {
                throw new CancellationException(
                        "The load of table " + table.name() + " failed or was stopped");
            }
        }

        /**
         * Counts {@code id} demanded until it is loaded (or fails); true if a thread must start it.
         */
        private synchronized boolean demand(BucketId id, CompletableFuture<HeldBucket> future) {
            if (!failed && demanded.add(id)) {
                anyDemanded = true;
                future.whenComplete((bucket, failure) -> satisfied(id));
            }
            notifyAll();
            return !failed && waiting.remove(id);
        }

        private synchronized void satisfied(BucketId id) {
            demanded.remove(id);
            anyDemanded = !demanded.isEmpty();
            notifyAll();
        }

        @Nullable
        private synchronized BucketId next() {
            return failed ? null : waiting.pollFirst();
        }

        /** Whether this load still runs: the bucket is then owned here, else closed. */
        private synchronized boolean keep(HeldBucket bucket) throws IOException {
            if (failed) {
                bucket.close();
                return false;
            }
            if (handOver == null) {
                owned.add(bucket);
            }
            return true;
        }

        private void fail(Throwable failure) {
            synchronized (this) {
                if (failed) {
                    return;
                }
                failed = true;
                waiting.clear();
                notifyAll();
                for (HeldBucket bucket : owned) {
                    try {
                        bucket.close();
                    } catch (IOException | RuntimeException e) {
                        failure.addSuppressed(e);
                    }
                }
                owned.clear();
            }
            futures.values().forEach(f -> f.completeExceptionally(failure));
        }

        /**
         * The bucket {@code id} once loaded, or null if this load has no rows of it. If no thread
         * has started it yet, this thread loads it; while it is awaited, the threads loading
         * buckets nobody waits for pause.
         */
        @Nullable
        HeldBucket await(BucketId id) throws IOException {
            CompletableFuture<HeldBucket> future = futures.get(id);
            if (future == null) {
                return null;
            }
            if (!future.isDone() && demand(id, future)) {
                loadOne(id);
            }
            return unwrap(id, future);
        }

        /**
         * The splits this load reads of bucket {@code id} while it is not loaded yet (not started,
         * or under way), ahead of the buckets not started if it is one; null once it is loaded or
         * failed, or if this load has no rows of it.
         */
        @Nullable
        List<Split> unloaded(BucketId id) {
            CompletableFuture<HeldBucket> future = futures.get(id);
            if (future == null || future.isDone()) {
                return null;
            }
            synchronized (this) {
                if (waiting.remove(id)) {
                    waiting.addFirst(id);
                }
            }
            return splits.get(id);
        }

        /** Whether every bucket is loaded (or the load failed). */
        boolean done() {
            return all.isDone();
        }

        /** Every bucket loaded, by id; this load's own buckets are the caller's from now. */
        Map<BucketId, HeldBucket> awaitAll() throws IOException {
            Map<BucketId, HeldBucket> loaded = new LinkedHashMap<>();
            for (Map.Entry<BucketId, CompletableFuture<HeldBucket>> e : futures.entrySet()) {
                loaded.put(e.getKey(), unwrap(e.getKey(), e.getValue()));
            }
            synchronized (this) {
                owned.clear();
            }
            return loaded;
        }

        /** Stops the load: buckets not started are never loaded, those still owned are closed. */
        void cancel() {
            fail(new CancellationException("The load of table " + table.name() + " was stopped"));
            pool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private HeldBucket unwrap(BucketId id, CompletableFuture<HeldBucket> future)
                throws IOException {
            try {
                return future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                throw new InterruptedIOException(
                        "Interrupted while loading bucket " + id + " of table " + table.name());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new IOException(
                        "Cannot load bucket " + id + " of table " + table.name() + ": " + cause,
                        cause);
            }
        }
    }

    /** The rows of {@code splits}, in order, as owned rows of the read type with their kinds. */
    List<RowData> readChanges(List<Split> splits) throws IOException {
        RowBytes bytes = new RowBytes(layout.readType);
        List<RowData> rows = new ArrayList<>();
        TableRead read = read();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    BinaryRowData copy = bytes.encode(row).copy();
                    copy.setRowKind(row.getRowKind());
                    rows.add(copy);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        return rows;
    }
}
