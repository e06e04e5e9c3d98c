package dev.tarn.connector.source;

import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;

/**
 * Reads a source subtask's splits on its fetcher thread, one split at a time in the order they were
 * assigned (so the changes of one bucket stay in snapshot order): it opens each split's files,
 * seeks to a restored position, and decodes rows there, never on the task thread.
 *
 * <p>A columnar read decodes a batch of rows into column vectors; such a batch is handed over as
 * views of the vectors ({@link ViewBatch}), so no row is copied, and the next batch is decoded only
 * once the task thread has emitted this one (the batch holds {@link #viewPermit} until recycled).
 * Reads that compute rows one by one (a primary-key table's merge) hand over copied batches
 * instead, and keep decoding while the task thread emits.
 */
final class TarnSplitReader implements SplitReader<RowBatch, TarnSplit> {

    /** Rows of a copied batch: amortizes the handover between the threads. */
    private static final int COPY_BATCH_ROWS = 1024;

    /** How often a fetch waiting for the task thread checks whether it was woken up. */
    private static final long WAKE_UP_POLL_MILLIS = 20;

    private final TableRead read;
    private final RowDataSerializer serializer;
    private final Queue<TarnSplit> splits = new ArrayDeque<>();
    private final Semaphore viewPermit = new Semaphore(1);
    private volatile boolean wokenUp;
    private long limitLeft;
    @Nullable private TarnSplit current;
    @Nullable private TableRead.SplitReader reader;

    TarnSplitReader(TableRead read, long limit) {
        this.read = read;
        this.serializer = new RowDataSerializer(read.readType());
        this.limitLeft = limit;
    }

    @Override
    public RecordsWithSplitIds<RowBatch> fetch() throws IOException {
        if (!acquireView()) {
            return Batches.EMPTY;
        }
        boolean handedOver = false;
        try {
            if (limitLeft <= 0) {
                return finishAll();
            }
            if (reader == null && !openNext()) {
                return Batches.EMPTY;
            }
            RowData first = reader.next();
            if (first == null) {
                return Batches.finished(closeCurrent());
            }
            int buffered = reader.buffered();
            if (buffered > 0) {
                int rows = (int) Math.min(1L + buffered, limitLeft);
                limitLeft -= rows;
                handedOver = true;
                return new ViewBatch(current.id(), first, rows, reader, viewPermit);
            }
            return copyBatch(first);
        } finally {
            if (!handedOver) {
                viewPermit.release();
            }
        }
    }

    /** Waits until no view batch is out; false if woken up first. */
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

    private boolean openNext() throws IOException {
        current = splits.poll();
        if (current == null) {
            return false;
        }
        reader = read.open(current.split());
        if (current.fileIndex() < 0) {
            // A position of a version 1 checkpoint: rows of the whole split.
            for (long i = 0; i < current.rowsInFile() && reader.next() != null; i++) {}
        } else if (current.fileIndex() > 0 || current.rowsInFile() > 0) {
            reader.seek(current.fileIndex(), current.rowsInFile());
        }
        return true;
    }

    private RecordsWithSplitIds<RowBatch> copyBatch(RowData first) throws IOException {
        Batches.Copied batch = new Batches.Copied(current.id(), COPY_BATCH_ROWS);
        RowData row = first;
        while (true) {
            batch.add(serializer.toBinaryRow(row).copy(), reader.fileIndex(), reader.rowsInFile());
            if (--limitLeft <= 0 || batch.isFull()) {
                return batch;
            }
            row = reader.next();
            if (row == null) {
                batch.finish(closeCurrent());
                return batch;
            }
        }
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

    /**
     * Rows that are views of the open reader's decoded batch: the task thread takes them with
     * {@code next()}, which only moves within the batch, and returns the permit when done.
     */
    private static final class ViewBatch implements RecordsWithSplitIds<RowBatch>, RowBatch {

        private final RowData first;
        private final TableRead.SplitReader reader;
        private final Semaphore permit;
        @Nullable private String splitId;
        private int left;
        private boolean started;
        private boolean handedOver;

        ViewBatch(
                String splitId,
                RowData first,
                int rows,
                TableRead.SplitReader reader,
                Semaphore permit) {
            this.splitId = splitId;
            this.first = first;
            this.left = rows;
            this.reader = reader;
            this.permit = permit;
        }

        @Override
        @Nullable
        public String nextSplit() {
            String id = splitId;
            splitId = null;
            return id;
        }

        @Override
        @Nullable
        public RowBatch nextRecordFromSplit() {
            if (handedOver) {
                return null;
            }
            handedOver = true;
            return this;
        }

        @Override
        @Nullable
        public RowData next() {
            if (left == 0) {
                return null;
            }
            left--;
            if (!started) {
                started = true;
                return first;
            }
            if (reader.buffered() == 0) {
                // A reader that skips rows (retractions) may have fewer than it announced.
                left = 0;
                return null;
            }
            try {
                return reader.next();
            } catch (IOException e) {
                // Unreachable: the rows were decoded before the batch was handed over.
                throw new IllegalStateException("A decoded row could not be read", e);
            }
        }

        // The reader's position is that of the row it returned last, the first row included: it
        // was returned at the fetch, and the reader has not moved since.
        @Override
        public int fileIndex() {
            return reader.fileIndex();
        }

        @Override
        public long rowsInFile() {
            return reader.rowsInFile();
        }

        @Override
        public Set<String> finishedSplits() {
            return Set.of();
        }

        @Override
        public void recycle() {
            permit.release();
        }
    }
}
