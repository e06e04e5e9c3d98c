package dev.tarn.connector.source.reader;

import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.row.BinaryRowBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Semaphore;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/** The batches of rows a {@link TarnSplitReader} hands to the task thread. */
final class Batches {

    /** Nothing to hand over (woken up, or no split to read). */
    static final RecordsWithSplitIds<RowBatch> EMPTY = new Finished(Set.of());

    static Finished finished(String splitId) {
        return new Finished(Set.of(splitId));
    }

    /** No rows; these splits are read to their end. */
    record Finished(Set<String> finishedSplits) implements RecordsWithSplitIds<RowBatch> {

        @Override
        @Nullable
        public String nextSplit() {
            return null;
        }

        @Override
        @Nullable
        public RowBatch nextRecordFromSplit() {
            return null;
        }
    }

    /**
     * What a fetch hands over for one split: the split's id, then this one element, emitted whole.
     */
    private abstract static class OneBatch implements RecordsWithSplitIds<RowBatch>, RowBatch {

        @Nullable String splitId;
        boolean handedOver;

        @Override
        @Nullable
        public String nextSplit() {
            String s = splitId;
            splitId = null;
            return s;
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
    }

    /**
     * A split whose reading failed: the task thread throws the failure when it comes to it, after
     * the rows read before it, so a row read is never dropped behind an error raised early.
     */
    static final class Failed extends OneBatch {

        private final Exception cause;

        /**
         * @param splitId the split that failed, or null if none was open
         */
        Failed(@Nullable String splitId, Exception cause) {
            this.splitId = splitId;
            this.cause = cause;
        }

        @Override
        @Nullable
        public String nextSplit() {
            if (splitId == null && !handedOver) {
                // No split to blame: fail at once.
                throw failure();
            }
            return super.nextSplit();
        }

        @Override
        public RowData next() {
            throw failure();
        }

        private RuntimeException failure() {
            handedOver = true;
            return cause instanceof RuntimeException r
                    ? r
                    : new UncheckedIOException(cause.getMessage(), (IOException) cause);
        }

        @Override
        public int fileIndex() {
            return 0;
        }

        @Override
        public long rowsInFile() {
            return 0;
        }

        @Override
        public Set<String> finishedSplits() {
            return Set.of();
        }
    }

    /**
     * Rows of one split in Flink's binary row format ({@link BinaryRowBatch}), each with its
     * position; maybe the split's last rows. Written on the fetcher thread, so that the task thread
     * emits rows that Flink copies (or serializes) as a block of bytes, not field by field, while
     * the fetcher already decodes the next batch. Returned to its pool when recycled, so a running
     * read reuses the same few buffers.
     */
    static final class Binary extends OneBatch {

        private final Queue<Binary> pool;
        private final BinaryRowBatch rows;
        private final BinaryRowData row;
        private final int[] files;
        private final long[] rowsInFile;
        private String id = "";
        private Set<String> finished = Set.of();
        private int next;

        /**
         * @param pool where the batch goes back when the task thread has emitted it
         */
        Binary(int arity, int capacity, Queue<Binary> pool) {
            this.pool = pool;
            this.rows = new BinaryRowBatch(capacity);
            this.row = new BinaryRowData(arity);
            this.files = new int[capacity];
            this.rowsInFile = new long[capacity];
        }

        /** Empties the batch for rows of {@code split}. */
        Binary reset(String split) {
            this.splitId = split;
            this.id = split;
            this.finished = Set.of();
            this.next = 0;
            this.handedOver = false;
            rows.clear();
            return this;
        }

        /** Appends a copy of {@code row}, read at the given position. */
        void add(RowData row, RowCopier copier, int file, long rowInFile) {
            int length = copier.prepare(row, row.getRowKind());
            int at = rows.reserve(length);
            copier.writePrepared(rows.buffer(), at);
            files[rows.size() - 1] = file;
            rowsInFile[rows.size() - 1] = rowInFile;
        }

        /**
         * Appends up to {@code max} rows the reader has decoded, written column by column; returns
         * how many (0 if the reader cannot).
         */
        int transfer(TableRead.SplitReader reader, long max) {
            int before = rows.size();
            int moved = reader.transferBuffered(rows, (int) Math.min(max, Integer.MAX_VALUE));
            int file = reader.fileIndex();
            long last = reader.rowsInFile();
            for (int i = 0; i < moved; i++) {
                files[before + i] = file;
                rowsInFile[before + i] = last - moved + 1 + i;
            }
            return moved;
        }

        boolean isFull() {
            return rows.isFull();
        }

        /** The split ends with these rows. */
        void finish(String splitId) {
            if (!splitId.equals(id)) {
                throw new IllegalStateException("Batch of split " + id + " finishing " + splitId);
            }
            finished = Set.of(splitId);
        }

        /** The next row, a view of the batch's buffer reused for every row. */
        @Override
        @Nullable
        public RowData next() {
            if (next == rows.size()) {
                return null;
            }
            rows.pointTo(row, next++);
            return row;
        }

        @Override
        public int fileIndex() {
            return files[next - 1];
        }

        @Override
        public long rowsInFile() {
            return rowsInFile[next - 1];
        }

        @Override
        public Set<String> finishedSplits() {
            return finished;
        }

        @Override
        public void recycle() {
            pool.offer(this);
        }
    }

    /**
     * Rows that are views of the open reader's decoded batch, for a read whose rows Flink does not
     * copy (a batch job reuses objects): the task thread takes them with {@code next()}, which only
     * moves within the batch, and returns the permit when done, so the reader decodes its next
     * batch only then.
     */
    static final class Views extends OneBatch {

        private final RowData first;
        private final TableRead.SplitReader reader;
        private final Semaphore permit;
        private final RowLimit limit;
        private int left;
        private boolean started;

        /**
         * @param rows the rows announced, taken from {@code limit}
         */
        Views(
                String splitId,
                RowData first,
                int rows,
                TableRead.SplitReader reader,
                Semaphore permit,
                RowLimit limit) {
            this.splitId = splitId;
            this.first = first;
            this.left = rows;
            this.reader = reader;
            this.permit = permit;
            this.limit = limit;
        }

        @Override
        @Nullable
        public RowData next() {
            if (left == 0) {
                return null;
            }
            if (!started) {
                started = true;
                left--;
                return first;
            }
            if (reader.buffered() == 0) {
                // A reader that skips rows (retractions) may have fewer than it announced: the
                // rows it did not have go back to the limit.
                limit.giveBack(left);
                left = 0;
                return null;
            }
            left--;
            try {
                return reader.next();
            } catch (IOException e) {
                // Unreachable: the rows were decoded before the batch was handed over.
                throw new UncheckedIOException("A decoded row could not be read", e);
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

    private Batches() {}
}
