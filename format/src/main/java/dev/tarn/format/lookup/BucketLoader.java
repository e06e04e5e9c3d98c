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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        Map<BucketId, List<Split>> splits = new LinkedHashMap<>();
        for (Split split : new TableScan(table).withFilter(filter).plan(snapshot).splits()) {
            BucketId id = new BucketId(split.partition(), split.bucket());
            if (holds.test(id) && (only == null || only.contains(id))) {
                splits.computeIfAbsent(id, b -> new ArrayList<>()).add(split);
            }
        }
        int threads = Math.max(1, Math.min(table.config().decodeThreads(), splits.size()));
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        threads,
                        r -> {
                            Thread t = new Thread(r, "tarn-lookup-load-" + table.name());
                            t.setDaemon(true);
                            return t;
                        });
        Loads loads = new Loads();
        try {
            Map<BucketId, Future<HeldBucket>> pending = new LinkedHashMap<>();
            splits.forEach(
                    (id, bucketSplits) ->
                            pending.put(id, pool.submit(() -> loads.made(load(bucketSplits)))));
            Map<BucketId, HeldBucket> loaded = new LinkedHashMap<>();
            for (Map.Entry<BucketId, Future<HeldBucket>> e : pending.entrySet()) {
                loaded.put(e.getKey(), await(e.getKey(), e.getValue()));
            }
            return loaded;
        } catch (IOException | RuntimeException e) {
            loads.fail(e);
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The buckets one {@link #load} made so far. Once it failed, every bucket made (before, or
     * later by a thread still loading) is closed, so none holds budget or local files.
     */
    private static final class Loads {
        private final List<HeldBucket> made = new ArrayList<>();
        private boolean failed;

        synchronized HeldBucket made(HeldBucket bucket) throws IOException {
            if (failed) {
                bucket.close();
            } else {
                made.add(bucket);
            }
            return bucket;
        }

        synchronized void fail(Exception failure) {
            failed = true;
            for (HeldBucket bucket : made) {
                try {
                    bucket.close();
                } catch (IOException | RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
            made.clear();
        }
    }

    private HeldBucket await(BucketId id, Future<HeldBucket> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
            throw new IOException(
                    "Cannot load bucket " + id + " of table " + table.name() + ": " + cause, cause);
        }
    }

    private HeldBucket load(List<Split> splits) throws IOException {
        HeldBucket bucket = newBucket();
        TableRead read = read();
        // No get sees the bucket before it is loaded: holding its lock throughout makes each put's
        // own locking a re-entry (another store's put still spills it only when the lock is free).
        bucket.lock.writeLock().lock();
        try {
            for (Split split : splits) {
                try (TableRead.SplitReader reader = read.open(split)) {
                    for (RowData row = reader.next(); row != null; row = reader.next()) {
                        bucket.apply(row);
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
