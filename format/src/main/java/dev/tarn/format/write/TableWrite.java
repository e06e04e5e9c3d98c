package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetWriteOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The write seam, one per writer task: rows in, data files out. Rows are routed to a writer per
 * (partition, bucket): in an append table a rolling file writer, in a primary-key table the
 * bucket's LSM tree ({@link MergeTreeBuckets}), which takes the row's kind as the kind of change.
 * {@link #prepareCommit} closes the open files and returns what they hold as {@link
 * CommitMessage}s, which a {@link TableCommit} publishes. Not thread-safe.
 *
 * <p>REQUIRES for a primary-key table: each bucket is written by one table write at a time (the
 * connector routes rows by bucket), so its sequence numbers grow and its compactions do not race.
 *
 * <p>Failure: files of a write that is closed without a commit are deleted by {@link #close}; files
 * already handed out by {@link #prepareCommit} belong to the caller from then on.
 */
public final class TableWrite implements AutoCloseable {

    private record BucketKey(Partition partition, int bucket) {}

    /**
     * Bytes of data files a primary-key write produced: level-0 files of flushes, and files of
     * compactions (also those compacted again before a commit). Their ratio to the flushed bytes is
     * the write amplification.
     */
    public record WrittenBytes(long flushed, long compacted) {}

    private final Table table;
    private final RowType rowType;
    private final RowRouter router;
    private final int totalBuckets;
    private final ParquetWriteOptions parquetOptions;
    private final Map<BucketKey, RollingFileWriter> writers = new LinkedHashMap<>();
    @Nullable private final MergeTreeBuckets mergeTrees;

    private BucketKey lastKey;
    private RollingFileWriter lastWriter;

    public TableWrite(Table table) {
        this(table, false);
    }

    /**
     * @param overwrite the files will be committed by {@link TableCommit#overwrite}: primary-key
     *     buckets start empty instead of from their files in the latest snapshot
     */
    public TableWrite(Table table, boolean overwrite) {
        this.table = table;
        this.rowType = table.schema().rowType();
        this.totalBuckets = table.config().bucket();
        this.router = new RowRouter(table.schema(), totalBuckets);
        ParquetWriteOptions defaults = ParquetWriteOptions.defaults();
        this.parquetOptions =
                new ParquetWriteOptions(
                        table.config().compression(),
                        defaults.zstdLevel(),
                        table.config().sizes().rowGroupSize(),
                        defaults.pageSize(),
                        defaults.dictionary());
        this.mergeTrees =
                table.schema().primaryKeys().isEmpty()
                        ? null
                        : new MergeTreeBuckets(table, parquetOptions, overwrite);
    }

    /**
     * For a writer restored from a checkpoint: the buckets of a primary-key table read their files
     * in the latest snapshot at the first {@link #prepareCommit(boolean) prepareCommit(false)} (a
     * checkpoint), not at their first row, and do not compact before it. Until that checkpoint
     * begins, the committable of the restored checkpoint may not be published yet; a bucket started
     * from the snapshot before it would miss its files. No effect on append tables.
     *
     * @return this
     */
    public TableWrite deferRestore() {
        if (mergeTrees != null) {
            mergeTrees.deferRestore();
        }
        return this;
    }

    public void write(RowData row) throws IOException {
        Partition partition = router.partition(row);
        int bucket = router.bucket(row);
        if (mergeTrees != null) {
            mergeTrees.write(partition, bucket, row);
            return;
        }
        RollingFileWriter writer;
        if (lastKey != null && lastKey.bucket == bucket && lastKey.partition == partition) {
            writer = lastWriter;
        } else {
            BucketKey key = new BucketKey(partition, bucket);
            writer = writers.get(key);
            if (writer == null) {
                writer =
                        new RollingFileWriter(
                                table.io(),
                                table.bucketPath(partition, bucket),
                                rowType,
                                parquetOptions,
                                table.config().sizes().targetFileSize(),
                                table.schema().id());
                writers.put(key, writer);
            }
            lastKey = key;
            lastWriter = writer;
        }
        writer.write(row);
    }

    /** As {@link #prepareCommit(boolean)} at the end of the input. */
    public List<CommitMessage> prepareCommit() throws IOException {
        return prepareCommit(true);
    }

    /**
     * Closes every open file and returns the files written since the last call. At the end of the
     * input ({@code endOfInput}), running compactions are awaited so their results are included;
     * otherwise (at a checkpoint) they go on and come with a later call.
     */
    public List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException {
        if (mergeTrees != null) {
            return mergeTrees.prepareCommit(endOfInput);
        }
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<BucketKey, RollingFileWriter> e : writers.entrySet()) {
            BucketKey key = e.getKey();
            messages.add(
                    CommitMessage.append(
                            key.partition, key.bucket, totalBuckets, e.getValue().finish()));
        }
        writers.clear();
        lastKey = null;
        lastWriter = null;
        messages.removeIf(CommitMessage::isEmpty);
        return messages;
    }

    /** Bytes written by flushes and compactions so far; zeros for an append table. */
    public WrittenBytes writtenBytes() {
        return mergeTrees == null ? new WrittenBytes(0, 0) : mergeTrees.writtenBytes();
    }

    /**
     * Compacts one bucket of a primary-key table into a single run at the last level, waiting for
     * it; the changes come with the next {@link #prepareCommit}.
     */
    public void compactFully(Partition partition, int bucket) throws IOException {
        if (mergeTrees == null) {
            throw new UnsupportedOperationException(
                    "Table " + table.name() + " has no primary key; only its buckets compact");
        }
        mergeTrees.compactFully(partition, bucket);
    }

    /** Deletes every file written since the last {@link #prepareCommit}. */
    @Override
    public void close() {
        if (mergeTrees != null) {
            mergeTrees.close();
        }
        writers.values().forEach(RollingFileWriter::abort);
        writers.clear();
        lastKey = null;
        lastWriter = null;
    }
}
