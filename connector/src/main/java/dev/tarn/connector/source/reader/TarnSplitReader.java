package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.table.data.RowData;

/**
 * Reads the splits of one lane of a source subtask ({@link LaneFetchers}) on its fetcher thread,
 * one split at a time in the order they were assigned (so the changes of one bucket stay in
 * snapshot order): it opens each split's files, seeks to a restored position, and decodes rows
 * there, never on the task thread. Under a pushed-down limit it takes the rows it hands over from
 * the subtask's {@link RowLimit}, and once that is reached finishes its splits unread.
 *
 * <p>A following read hands rows over in batches of Flink's binary rows ({@link Batches.Binary}):
 * the task thread only points a row at each in turn, Flink copies (object reuse is off in a
 * streaming job) or serializes each row as one block of bytes, and the fetcher decodes the next
 * batch meanwhile. The element queue of the reader base bounds the batches in flight; emitted
 * batches come back to {@link #pool} for reuse. A one-snapshot read, which runs in a batch job
 * whose planner turns object reuse on, hands a decoded batch over as views of its column vectors
 * ({@link Batches.Views}) instead, which nothing copies, and decodes the next once they are
 * emitted; rows it computes one by one (a merge) go as binary rows.
 */
public final class TarnSplitReader implements SplitReader<RowBatch, TarnSplit> {

    /** Rows of a batch: amortizes the handover between the threads, a few hundred KiB at most. */
    private static final int BATCH_ROWS = 2048;

    /** How often a fetch waiting for the task thread checks whether it was woken up. */
    private static final long WAKE_UP_POLL_MILLIS = 20;

    /** How long a fetch after a handed-over failure waits, so the fetcher does not spin. */
    private static final long FAILED_FETCH_PAUSE_MILLIS = 20;

    private final TableRead read;
    private final RowCopier copier;
    private final int arity;
    private final Queue<Batches.Binary> pool = new ConcurrentLinkedQueue<>();
    private final Queue<TarnSplit> splits = new ArrayDeque<>();
    private final boolean views;
    private final Semaphore viewPermit = new Semaphore(1);
    private final RowLimit limit;
    private final FetchLag fetchLag;
    private volatile boolean wokenUp;
    @Nullable private Batches.Failed failure;
    private boolean failureHandedOver;
    @Nullable private TarnSplit current;
    @Nullable private TableRead.SplitReader reader;

    /**
     * @param limit the rows the subtask may still hand over, shared by its lanes
     * @param views hands decoded batches over as views (Flink must not copy the rows: a batch job,
     *     which reuses objects), else as binary rows
     * @param fetchLag told of each split opened
     */
    public TarnSplitReader(TableRead read, RowLimit limit, boolean views, FetchLag fetchLag) {
        this.read = read;
        this.fetchLag = fetchLag;
        this.views = views;
        this.copier = new RowCopier(read.readType());
        this.arity = read.readType().getFieldCount();
        this.limit = limit;
    }

    @Override
    public RecordsWithSplitIds<RowBatch> fetch() throws IOException {
        if (failure != null) {
            return handOverFailure();
        }
        if (views && !acquireView()) {
            return Batches.EMPTY;
        }
        boolean viewsOut = false;
        try {
            if (limit.reached()) {
                return finishAll();
            }
            if (reader == null && !openNext()) {
                return Batches.EMPTY;
            }
            RowData row = reader.next();
            if (row == null) {
                return Batches.finished(closeCurrent());
            }
            if (views && reader.buffered() > 0) {
                int rows = (int) limit.take(1L + reader.buffered());
                if (rows == 0) {
                    return finishAll();
                }
                viewsOut = true;
                return new Batches.Views(current.id(), row, rows, reader, viewPermit, limit);
            }
            return binary(row);
        } catch (IOException | RuntimeException e) {
            failure = new Batches.Failed(current == null ? null : current.id(), e);
            return handOverFailure();
        } finally {
            if (views && !viewsOut) {
                viewPermit.release();
            }
        }
    }

    /**
     * A batch of binary rows from {@code row} on, as many as the limit grants; a failure after some
     * rows follows them.
     */
    private RecordsWithSplitIds<RowBatch> binary(RowData row) throws IOException {
        if (limit.take(1) == 0) {
            return finishAll();
        }
        Batches.Binary batch = pool.poll();
        if (batch == null) {
            batch = new Batches.Binary(arity, BATCH_ROWS, pool);
        }
        batch.reset(current.id());
        try {
            while (true) {
                batch.add(row, copier, reader.fileIndex(), reader.rowsInFile());
                // The rest of a decoded batch goes column by column, where the reader can.
                long granted = limit.take(reader.buffered());
                limit.giveBack(granted - batch.transfer(reader, granted));
                if (limit.reached() || batch.isFull()) {
                    return batch;
                }
                row = reader.next();
                if (row == null) {
                    batch.finish(closeCurrent());
                    return batch;
                }
                if (limit.take(1) == 0) {
                    // Another lane took the last rows: the next fetch finishes the splits.
                    return batch;
                }
            }
        } catch (IOException | RuntimeException e) {
            // The rows read before the failure go first; the failure follows them in order.
            failure = new Batches.Failed(current == null ? null : current.id(), e);
            return batch;
        }
    }

    /** Waits until no batch of views is out; false if woken up first. */
    private boolean acquireView() throws IOException {
        try {
            while (!viewPermit.tryAcquire(WAKE_UP_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (wokenUp) {
                    wokenUp = false;
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for the task thread", e);
        }
    }

    /**
     * The failure of a split, handed over once, behind the rows before it, so that the task thread
     * emits every row read and then fails; later fetches wait for the task to end.
     */
    private RecordsWithSplitIds<RowBatch> handOverFailure() {
        if (!failureHandedOver) {
            failureHandedOver = true;
            return failure;
        }
        try {
            Thread.sleep(FAILED_FETCH_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Batches.EMPTY;
    }

    private boolean openNext() throws IOException {
        current = splits.poll();
        if (current == null) {
            return false;
        }
        fetchLag.opened(current.eventTime());
        reader = read.open(current.split(), current.filtersRows());
        if (current.fileIndex() < 0) {
            // A position of a version 1 checkpoint: rows of the whole split.
            for (long i = 0; i < current.rowsInFile() && reader.next() != null; i++) {}
        } else if (current.fileIndex() > 0 || current.rowsInFile() > 0) {
            reader.seek(current.fileIndex(), current.rowsInFile());
        }
        return true;
    }

    private Batches.Finished finishAll() throws IOException {
        Set<String> ids = new HashSet<>();
        if (current != null) {
            ids.add(closeCurrent());
        }
        for (TarnSplit split : splits) {
            ids.add(split.id());
        }
        splits.clear();
        return new Batches.Finished(ids);
    }

    private String closeCurrent() throws IOException {
        String id = current.id();
        reader.close();
        reader = null;
        current = null;
        return id;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<TarnSplit> change) {
        if (change instanceof SplitsAddition<TarnSplit> addition) {
            splits.addAll(addition.splits());
        }
    }

    @Override
    public void wakeUp() {
        wokenUp = true;
    }

    @Override
    public void close() throws Exception {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
