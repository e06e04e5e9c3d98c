package dev.tarn.connector.source;

import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.table.data.RowData;

/** The batches of rows a {@link TarnSplitReader} hands to the task thread, apart from views. */
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

    /** Copies of rows of one split, each with its position; maybe the split's last rows. */
    static final class Copied implements RecordsWithSplitIds<RowBatch>, RowBatch {

        private final RowData[] rows;
        private final int[] files;
        private final long[] rowsInFile;
        @Nullable private String splitId;
        private final String id;
        private Set<String> finished = Set.of();
        private int size;
        private int next;
        private boolean handedOver;

        Copied(String splitId, int capacity) {
            this.splitId = splitId;
            this.id = splitId;
            this.rows = new RowData[capacity];
            this.files = new int[capacity];
            this.rowsInFile = new long[capacity];
        }

        void add(RowData row, int file, long rowInFile) {
            rows[size] = row;
            files[size] = file;
            rowsInFile[size] = rowInFile;
            size++;
        }

        boolean isFull() {
            return size == rows.length;
        }

        /** The split ends with these rows. */
        void finish(String splitId) {
            if (!splitId.equals(id)) {
                throw new IllegalStateException("Batch of split " + id + " finishing " + splitId);
            }
            finished = Set.of(splitId);
        }

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

        @Override
        @Nullable
        public RowData next() {
            return next == size ? null : rows[next++];
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
    }

    private Batches() {}
}
