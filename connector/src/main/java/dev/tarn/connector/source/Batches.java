package dev.tarn.connector.source;

import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.table.data.RowData;

/** The batches of rows a {@link TarnSplitReader} hands to the task thread, apart from views. */
final class Batches {

    /** Nothing to hand over (woken up, or no split to read). */
    static final RecordsWithSplitIds<TarnRecord> EMPTY = new Finished(Set.of());

    static Finished finished(String splitId) {
        return new Finished(Set.of(splitId));
    }

    /** No rows; these splits are read to their end. */
    record Finished(Set<String> finishedSplits) implements RecordsWithSplitIds<TarnRecord> {

        @Override
        @Nullable
        public String nextSplit() {
            return null;
        }

        @Override
        @Nullable
        public TarnRecord nextRecordFromSplit() {
            return null;
        }
    }

    /** Copies of rows of one split, each with its position; maybe the split's last rows. */
    static final class Copied implements RecordsWithSplitIds<TarnRecord> {

        private final TarnRecord record = new TarnRecord();
        private final RowData[] rows;
        private final int[] files;
        private final long[] rowsInFile;
        @Nullable private String splitId;
        private final String id;
        private Set<String> finished = Set.of();
        private int size;
        private int next;

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
        public TarnRecord nextRecordFromSplit() {
            if (next == size) {
                return null;
            }
            int i = next++;
            return record.set(rows[i], files[i], rowsInFile[i]);
        }

        @Override
        public Set<String> finishedSplits() {
            return finished;
        }
    }

    private Batches() {}
}
