package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.Closeable;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The read seam's reader: turns a {@link Split} into rows of the projected type, each file without
 * the rows its deletion vector deletes. The filter skips Parquet row groups and pages; rows that
 * survive are returned unfiltered, unless the split is opened {@linkplain #open(Split, boolean)
 * filtering rows}: then rows read one by one (not merged) that the filter surely drops are dropped
 * within each decoded batch. Either way the engine still applies its filters. A split of a
 * primary-key table is merged on read ({@link MergeTreeSplitReader}), pruned by the filter's key
 * columns only, unless it was planned file by file ({@link Split.Kind#SNAPSHOT_BY_FILE}): then its
 * files are read as an append table's, pruned by any column, as each key has one live row in them.
 */
public final class TableRead {

    /**
     * Rows a scan of a split's files decodes per batch: the column vectors of a batch stay within
     * L2, as for a merge's readers, which keep many files open.
     */
    static final int SCAN_BATCH_ROWS = 2048;

    private final TableContext table;
    private RowType readType;
    @Nullable private Predicate filter;
    @Nullable private ChangelogCompletion completion;

    public TableRead(TableContext table) {
        this.table = table;
        this.readType = table.schema().rowType();
    }

    /** Returns only these columns, in this order (a subset of the table's by name). */
    public TableRead withReadType(RowType readType) {
        this.readType = readType;
        return this;
    }

    public TableRead withFilter(@Nullable Predicate filter) {
        this.filter = filter;
        return this;
    }

    public RowType readType() {
        return readType;
    }

    /**
     * Whether a streaming read of {@code table} that {@code seesWholeTable} (from a full phase, or
     * from the first snapshot: {@link StreamScan#seesWholeTable}) returns a complete changelog when
     * asked to ({@link #completingChangelog}), rather than upserts: a primary-key table that stores
     * no changelog, with the deduplicate engine and {@code streaming-read.lookup-changelog} on.
     */
    public static boolean completesChangelog(TableContext table, boolean seesWholeTable) {
        return ChangelogCompletion.applies(table, seesWholeTable);
    }

    /**
     * Returns a complete changelog instead of upserts ({@link ChangelogCompletion}): the read keeps
     * the current rows of the buckets it reads, in {@code streaming-read.lookup-memory}, so one
     * such read serves one reader thread, which opens the splits of a bucket in snapshot order.
     * Call after {@link #withReadType} and {@link #withFilter}.
     *
     * @param sharing a completing read of another fetcher thread of the same subtask, whose memory
     *     this one shares, or null for memory of its own
     */
    public TableRead completingChangelog(@Nullable TableRead sharing) {
        TableRead raw = new TableRead(table).withReadType(readType).withFilter(filter);
        completion =
                new ChangelogCompletion(table, raw, sharing == null ? null : sharing.completion);
        return this;
    }

    /** Bytes of memory a completing read's current rows take, 0 for another read. */
    public long completionMemoryBytes() {
        return completion == null ? 0 : completion.memoryBytes();
    }

    /**
     * Opens {@code split} for reading as its {@link Split.Kind} says: the rows of a snapshot as
     * INSERTs, a snapshot's new rows or versions as changes, stored changelog files as written, or
     * the rows an overwrite removed as DELETEs.
     */
    public SplitReader open(Split split) {
        return open(split, false);
    }

    /**
     * As {@link #open(Split)}; with {@code filterRows}, the rows of files read one by one (an
     * append table's, a primary-key table's read with deletion vectors) that the filter surely
     * drops are not returned, so fewer rows reach the engine, which still applies its filters. A
     * position in the split ({@link SplitReader#rowsInFile}, {@link SplitReader#seek}) then counts
     * only rows returned, so a reader restored to a position must filter as the one that took it.
     * Merged reads and a completing read ({@link #completingChangelog}) return every row.
     */
    public SplitReader open(Split split, boolean filterRows) {
        if (completion != null) {
            return completion.open(split);
        }
        return switch (table.kind()) {
            case APPEND -> {
                if (split.kind() == Split.Kind.CHANGELOG) {
                    throw new IllegalArgumentException(
                            "Append table " + table.name() + " has no changelog files: " + split);
                }
                SplitReader rows =
                        new FileSplitReader(
                                split,
                                new DataFileOpener(
                                        table,
                                        table.bucketPath(split.partition(), split.bucket()),
                                        table.schema().rowType(),
                                        filter,
                                        "snapshot " + split.snapshotId()),
                                readType,
                                filterRows && filter != null);
                yield split.kind() == Split.Kind.RETRACT ? new Retractions(rows) : rows;
            }
            case PRIMARY_KEY -> {
                Predicate keyFilter =
                        Predicate.onlyFields(
                                filter, table.schema().fieldIndexes(table.schema().primaryKeys()));
                yield switch (split.kind()) {
                    case SNAPSHOT ->
                            new MergeTreeSplitReader(table, split, readType, keyFilter, false);
                    case SNAPSHOT_BY_FILE ->
                            new FileSplitReader(
                                    split,
                                    new DataFileOpener(
                                            table,
                                            table.bucketPath(split.partition(), split.bucket()),
                                            KeyValueSchema.of(table.schema()).fileType(),
                                            filter,
                                            "snapshot " + split.snapshotId()),
                                    readType,
                                    filterRows && filter != null);
                    case DELTA -> new MergeTreeSplitReader(table, split, readType, keyFilter, true);
                    case CHANGELOG ->
                            split.files().stream()
                                            .anyMatch(f -> f.content() == FileContent.BEFORE_IMAGES)
                                    ? new FlushChangelogReader(table, split, readType)
                                    : new ChangelogSplitReader(table, split, readType, keyFilter);
                    case RETRACT ->
                            new Retractions(
                                    new MergeTreeSplitReader(
                                            table, split, readType, keyFilter, false));
                };
            }
        };
    }

    /**
     * Rows of one split. {@link #next} may return the same object again with new values: copy a row
     * before keeping it past the next call.
     */
    public interface SplitReader extends Closeable {

        /** The next row, or null after the last. */
        @Nullable
        RowData next() throws IOException;

        /** Bytes read from data files so far. */
        long bytesRead();

        /**
         * Rows decoded and not returned yet: {@link #next} returns them without reading or decoding
         * (a batch of a columnar read). Zero where every row is computed as it is asked for.
         */
        default int buffered() {
            return 0;
        }

        /**
         * Moves up to {@code max} of the {@link #buffered} rows into {@code out} as Flink binary
         * rows written column by column, as if {@link #next} had returned them (the position moves
         * past them, all of one file); returns how many. 0 for a reader that cannot: take its rows
         * from {@link #next}.
         */
        default int transferBuffered(BinaryRowBatch out, int max) {
            return 0;
        }

        /**
         * Where the reader is: the index in the split of the file the last row came from, for
         * readers that read file after file, else 0 ...
         */
        default int fileIndex() {
            return 0;
        }

        /** ... and the rows returned so far from that file (for other readers, in all). */
        long rowsInFile();

        /**
         * Moves to a position {@link #fileIndex} and {@link #rowsInFile} reported, as if the rows
         * before it were read, skipping whole files and row groups without reading them where it
         * can. Call before the first {@link #next}.
         */
        default void seek(int fileIndex, long rowsInFile) throws IOException {
            if (fileIndex != 0) {
                throw new IllegalArgumentException(
                        "This split is not read file by file: cannot seek to file " + fileIndex);
            }
            for (long i = 0; i < rowsInFile; i++) {
                if (next() == null) {
                    break;
                }
            }
        }
    }

    /** The rows of another reader, as DELETEs: what an overwrite removed. */
    private record Retractions(SplitReader rows) implements SplitReader {

        @Override
        @Nullable
        public RowData next() throws IOException {
            RowData row = rows.next();
            if (row != null) {
                row.setRowKind(RowKind.DELETE);
            }
            return row;
        }

        @Override
        public long bytesRead() {
            return rows.bytesRead();
        }

        @Override
        public int buffered() {
            return rows.buffered();
        }

        @Override
        public int fileIndex() {
            return rows.fileIndex();
        }

        @Override
        public long rowsInFile() {
            return rows.rowsInFile();
        }

        @Override
        public void seek(int fileIndex, long rowsInFile) throws IOException {
            rows.seek(fileIndex, rowsInFile);
        }

        @Override
        public void close() throws IOException {
            rows.close();
        }
    }
}
