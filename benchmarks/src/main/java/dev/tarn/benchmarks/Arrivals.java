package dev.tarn.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.types.RowKind;

/**
 * What one run's streaming job delivered to its {@link ArrivalSinkFactory} sink, as it arrives:
 * rows and a checksum of their first column (the key, or the batch id) by row kind, and, for a sink
 * tracking batches, when the first row of each batch arrived ({@link System#nanoTime}) and how many
 * rows each brought. Written by the sink's writer threads, read by the benchmark's thread at any
 * time. When the {@code target}-th row arrives, its time is kept and waiters are released.
 */
final class Arrivals {

    private final long target;
    private final boolean perBatch;
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong[] rows = new AtomicLong[RowKind.values().length];
    private final AtomicLong[] keyChecksums = new AtomicLong[RowKind.values().length];
    private final Map<Long, Long> firstArrival = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> batchRows = new ConcurrentHashMap<>();
    private final CountDownLatch reached = new CountDownLatch(1);
    private volatile long reachedAt;
    private volatile long firstAt;

    Arrivals(long target, boolean perBatch) {
        this.target = target;
        this.perBatch = perBatch;
        for (int k = 0; k < rows.length; k++) {
            rows[k] = new AtomicLong();
            keyChecksums[k] = new AtomicLong();
        }
    }

    /** The checksum of a key: a sum of these is order-free and shows a swapped key. */
    static long checksum(long key) {
        return BenchGenFactory.Rows.mix(key);
    }

    void record(RowKind kind, long key) {
        int k = kind.ordinal();
        rows[k].incrementAndGet();
        keyChecksums[k].addAndGet(checksum(key));
        if (perBatch) {
            firstArrival.putIfAbsent(key, System.nanoTime());
            batchRows.computeIfAbsent(key, b -> new AtomicInteger()).incrementAndGet();
        }
        long n = total.incrementAndGet();
        if (n == 1) {
            firstAt = System.nanoTime();
        }
        if (n == target) {
            reachedAt = System.nanoTime();
            reached.countDown();
        }
    }

    /** When the first row arrived ({@link System#nanoTime}), 0 before. */
    long firstAt() {
        return firstAt;
    }

    long total() {
        return total.get();
    }

    long target() {
        return target;
    }

    long rows(RowKind kind) {
        return rows[kind.ordinal()].get();
    }

    long keyChecksum(RowKind kind) {
        return keyChecksums[kind.ordinal()].get();
    }

    /** When the first row of {@code batch} arrived ({@link System#nanoTime}), or null. */
    Long firstArrival(long batch) {
        return firstArrival.get(batch);
    }

    /** Rows that arrived by batch. */
    Map<Long, Integer> batchRows() {
        Map<Long, Integer> counts = new java.util.TreeMap<>();
        batchRows.forEach((batch, n) -> counts.put(batch, n.get()));
        return counts;
    }

    /** Waits up to {@code millis} for the target row; returns whether it arrived. */
    boolean awaitTarget(long millis) throws InterruptedException {
        return reached.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * When the target row arrived ({@link System#nanoTime}); only after it did. Waits a moment for
     * the writer that counted the target row to publish its time.
     */
    long reachedAt() throws InterruptedException {
        if (!reached.await(1, TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    String.format("Only %,d of %,d rows have arrived", total(), target));
        }
        return reachedAt;
    }
}
