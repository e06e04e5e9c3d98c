package dev.tarn.format.parquet.read;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.annotation.Nullable;

/**
 * Decodes a batch's columns on two threads: the reader's own, and a helper of a small process-wide
 * pool. The columns of a Parquet row group are independent (each has its own pages, dictionary and
 * vector), and decompressing and decoding them is most of a scan's CPU, so a reader whose split is
 * the only one its subtask reads (one large file, a parallelism of 1) would otherwise leave the
 * machine's other cores idle while its task thread waits for each batch.
 *
 * <p>Each batch, the columns are split into two halves of about equal cost (the decode time each
 * column took so far, longest first into the lighter half); the helper is offered one half while
 * the reader decodes the other. If no helper has taken that half by the time the reader is done
 * (every core busy, say with the other subtasks' reads), the reader takes it back and decodes it
 * itself, so a busy machine pays one queued task per batch and never waits for a helper to start.
 * The helper's writes to the vectors happen before the reader sees its half done (a volatile
 * state), so the decoded batch is whole to whoever reads it next.
 */
final class ColumnHalves {

    /** Batches between re-splits of the columns by the cost measured so far. */
    private static final int RESPLIT_BATCHES = 64;

    /**
     * Spins while waiting for a running helper before parking: a few microseconds, no more, since a
     * half of a batch takes tens to hundreds of them and a spinning reader holds a core that the
     * machine's other readers may need.
     */
    private static final int SPINS = 100;

    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;

    private final FlatColumnReader[] columns;

    /** Nanoseconds each column's decoding took, summed over the batches since the last split. */
    private final long[] cost;

    /** The columns the reader decodes, and those it offers the helper. */
    private int[] mine;

    private int[] offered;

    private int batches;

    /** The offered half of the current batch, reused from batch to batch. */
    private final Half half = new Half();

    ColumnHalves(FlatColumnReader[] columns) {
        this.columns = columns;
        this.cost = new long[columns.length];
        split();
    }

    /** True if decoding {@code columns} on two threads can pay for itself. */
    static boolean worthIt(int columns) {
        return columns >= 2 && Pool.THREADS >= 2;
    }

    /** The columns the current batch leaves out (decoded already), or null. */
    @Nullable private boolean[] decoded;

    /** The rows of the current batch to decode (ascending), or null for all of them. */
    @Nullable private int[] selected;

    private int selectedCount;

    /** Fills every column's vector with its next {@code rows} values. */
    void readBatch(int rows) throws IOException {
        read(rows, null, null, 0);
    }

    /**
     * As {@link #readBatch}, leaving out the columns {@code decoded} marks, and, if {@code
     * selected} is not null, filling only its first {@code count} rows ({@link
     * FlatColumnReader#readSelected}).
     */
    void read(int rows, @Nullable boolean[] decoded, @Nullable int[] selected, int count)
            throws IOException {
        // Written before the helper's task is queued, which publishes them to it.
        this.decoded = decoded;
        this.selected = selected;
        this.selectedCount = count;
        if (++batches % RESPLIT_BATCHES == 0) {
            split();
        }
        half.start(rows, Thread.currentThread());
        Pool.EXECUTOR.execute(half);
        decode(mine, rows);
        if (half.claim()) {
            half.run(rows);
        } else {
            half.await();
        }
        half.rethrow();
    }

    private void decode(int[] which, int rows) throws IOException {
        for (int column : which) {
            if (decoded != null && decoded[column]) {
                continue;
            }
            long start = System.nanoTime();
            if (selected != null) {
                columns[column].readSelected(rows, selected, selectedCount);
            } else {
                columns[column].readBatch(rows);
            }
            cost[column] += System.nanoTime() - start;
        }
    }

    /**
     * Splits the columns into two halves of about equal measured cost (longest first into the
     * lighter half); before any measurement, alternately.
     */
    private void split() {
        Integer[] order = new Integer[columns.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(cost[b], cost[a]));
        int[] first = new int[columns.length];
        int[] second = new int[columns.length];
        int firstCount = 0;
        int secondCount = 0;
        long firstCost = 0;
        long secondCost = 0;
        for (int column : order) {
            if (firstCost < secondCost || (firstCost == secondCost && firstCount <= secondCount)) {
                first[firstCount++] = column;
                firstCost += cost[column];
            } else {
                second[secondCount++] = column;
                secondCost += cost[column];
            }
        }
        mine = Arrays.copyOf(first, firstCount);
        offered = Arrays.copyOf(second, secondCount);
        // Halve the history, so that the split follows a change of the columns' pages.
        for (int i = 0; i < cost.length; i++) {
            cost[i] /= 2;
        }
    }

    /** The half of a batch offered to a helper: run by whichever thread claims it first. */
    private final class Half implements Runnable {

        private final AtomicInteger state = new AtomicInteger(DONE);
        private int rows;
        @Nullable private Thread reader;
        @Nullable private Throwable failure;

        void start(int rows, Thread reader) {
            this.rows = rows;
            this.reader = reader;
            this.failure = null;
            state.set(QUEUED);
        }

        boolean claim() {
            return state.compareAndSet(QUEUED, RUNNING);
        }

        /** On a helper: decodes the half unless the reader took it back. */
        @Override
        public void run() {
            if (!claim()) {
                return;
            }
            Thread waiting = reader;
            run(rows);
            LockSupport.unpark(waiting);
        }

        void run(int rows) {
            try {
                decode(offered, rows);
            } catch (Throwable t) {
                failure = t;
            }
            state.set(DONE);
        }

        void await() {
            for (int i = 0; i < SPINS && state.get() != DONE; i++) {
                Thread.onSpinWait();
            }
            while (state.get() != DONE) {
                LockSupport.park(this);
            }
        }

        void rethrow() throws IOException {
            Throwable t = failure;
            if (t == null) {
                return;
            }
            failure = null;
            if (t instanceof IOException e) {
                throw e;
            }
            if (t instanceof RuntimeException e) {
                throw e;
            }
            throw (Error) t;
        }
    }

    /**
     * The helpers: one thread per core at most, made on demand and gone after a minute idle (so a
     * job's classes are not held by an idle thread), daemons (a JVM never waits for them).
     */
    private static final class Pool {

        static final int THREADS = Runtime.getRuntime().availableProcessors();

        static final ThreadPoolExecutor EXECUTOR = executor();

        private static ThreadPoolExecutor executor() {
            AtomicInteger count = new AtomicInteger();
            ThreadFactory threads =
                    task -> {
                        Thread thread =
                                new Thread(task, "tarn-column-decode-" + count.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    };
            ThreadPoolExecutor executor =
                    new ThreadPoolExecutor(
                            THREADS,
                            THREADS,
                            60,
                            TimeUnit.SECONDS,
                            new LinkedBlockingQueue<>(),
                            threads);
            executor.allowCoreThreadTimeOut(true);
            return executor;
        }
    }
}
