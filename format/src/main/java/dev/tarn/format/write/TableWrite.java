package dev.tarn.format.write;

import dev.tarn.format.bucket.RowRouter;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * The write seam, one per writer task: rows in, data files out. Each row goes to the {@link
 * BucketWriter} of its (partition, bucket), made by the table kind's {@link BucketWriters}: in an
 * append table rolling data files, in a primary-key table the bucket's LSM tree, which takes the
 * row's kind as the kind of change. A row that no data file can hold (a NULL map key) is refused
 * before any writer takes it. {@link #prepareCommit} closes the open files and returns what they
 * hold as {@link CommitMessage}s, which a {@code TableCommit} publishes. Not thread-safe.
 *
 * <p>REQUIRES for a primary-key table: each bucket is written by one table write at a time (the
 * connector routes rows by bucket), so its sequence numbers grow and its compactions do not race.
 *
 * <p>Failure: files of a write that is closed without a commit are deleted by {@link #close}; files
 * already handed out by {@link #prepareCommit} belong to the caller from then on.
 */
public final class TableWrite implements AutoCloseable {

    /**
     * Bytes of data files a primary-key write produced: level-0 files of flushes, and files of
     * compactions (also those compacted again before a commit). Their ratio to the flushed bytes is
     * the write amplification.
     */
    public record WrittenBytes(long flushed, long compacted) {}

    private final TableContext table;
    private final RowRouter router;
    private final BucketWriters kind;

    /** Null for a table without map columns, whose rows need no check. */
    @Nullable private final MapKeyCheck mapKeys;

    private final Map<BucketId, BucketWriter> buckets = new LinkedHashMap<>();

    /** The writers of each partition by bucket: a row finds its writer without a key object. */
    private final Map<Partition, BucketWriter[]> byPartition = new HashMap<>();

    private Partition lastPartition;

    /** Taken at each commit by the writing thread, read by any. */
    private volatile WriteStats stats = WriteStats.NONE;

    private BucketWriter[] lastWriters;

    /**
     * @param overwrite the files will be committed by {@code TableCommit.overwrite}: primary-key
     *     buckets start empty instead of from their files in the latest snapshot
     */
    public TableWrite(TableContext table, boolean overwrite) {
        this(table, overwrite, PublishedVectors.NONE);
    }

    /**
     * A write whose primary-key buckets read their published files with {@code vectors} applied (a
     * compaction job's, which takes the vectors of the snapshot it planned on).
     */
    public TableWrite(TableContext table, boolean overwrite, PublishedVectors vectors) {
        this.table = table;
        this.router = new RowRouter(table.schema(), table.config().bucket());
        this.mapKeys = MapKeyCheck.of(table.name(), table.schema().rowType());
        ParquetDataWriter.Options defaults = ParquetDataWriter.Options.defaults();
        ParquetDataWriter.Options parquetOptions =
                new ParquetDataWriter.Options(
                                table.config().compression(),
                                defaults.zstdLevel(),
                                table.config().sizes().rowGroupSize(),
                                defaults.pageSize(),
                                defaults.dictionary())
                        .withFieldIds(
                                table.schema().fields().stream()
                                        .mapToInt(TableSchema.DataField::id)
                                        .toArray());
        this.kind =
                switch (table.kind()) {
                    case APPEND -> new AppendBucketWriters(table, parquetOptions, overwrite);
                    case PRIMARY_KEY ->
                            new MergeTreeBucketWriters(table, parquetOptions, overwrite, vectors);
                };
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
        kind.deferRestore();
        return this;
    }

    /**
     * Where the write buffers of primary-key buckets spill when full: a new directory under {@code
     * parent} (the JVM's temporary directory by default), made at the first spill and deleted at
     * {@link #close}. A Flink task passes its TaskManager's {@code io.tmp.dirs}. Call it before the
     * first row.
     *
     * @return this
     */
    public TableWrite spillUnder(java.nio.file.Path parent) {
        kind.spillUnder(parent);
        return this;
    }

    /**
     * Takes one row (in a primary-key table, one change of its key).
     *
     * @throws IllegalArgumentException naming the table, the column and the place if the row holds
     *     a NULL map key; nothing of the row is written then
     */
    public void write(RowData row) throws IOException {
        if (mapKeys != null) {
            mapKeys.check(row);
        }
        Partition partition = router.partition(row);
        if (partition != lastPartition) {
            lastWriters = writersOf(partition);
            lastPartition = partition;
        }
        int bucket = router.bucket(row);
        BucketWriter writer = lastWriters[bucket];
        if (writer == null) {
            writer = open(new BucketId(partition, bucket));
        }
        writer.write(row);
    }

    private BucketWriter open(BucketId bucket) throws IOException {
        BucketWriter writer = kind.open(bucket);
        buckets.put(bucket, writer);
        writersOf(bucket.partition())[bucket.bucket()] = writer;
        return writer;
    }

    /** The writers of one partition by bucket (one slot for a table without bucketing). */
    private BucketWriter[] writersOf(Partition partition) {
        return byPartition.computeIfAbsent(
                partition, p -> new BucketWriter[Math.max(1, table.config().bucket())]);
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
        long buffered = kind.bufferBytes();
        kind.beforeCommit(endOfInput);
        List<CommitMessage> messages = new ArrayList<>();
        for (BucketWriter writer : buckets.values()) {
            messages.addAll(writer.prepareCommit(endOfInput));
        }
        kind.afterCommit(endOfInput);
        stats = kind.stats(buffered);
        return messages;
    }

    /**
     * What the buckets looked like at the last {@link #prepareCommit}; safe to call from any thread
     * (a metric reporter's).
     */
    public WriteStats stats() {
        return stats;
    }

    /** Bytes written by flushes and compactions so far; zeros for an append table. */
    public WrittenBytes writtenBytes() {
        return kind.writtenBytes();
    }

    /**
     * Compacts one bucket, waiting for it: a primary-key table's into a single run at the last
     * level, an append table's small files (at least two) into files of the target size. The
     * changes come with the next {@link #prepareCommit}.
     */
    public void compactFully(Partition partition, int bucket) throws IOException {
        BucketId id = new BucketId(partition, bucket);
        BucketWriter writer = buckets.get(id);
        (writer == null ? open(id) : writer).compactFully();
    }

    /** Deletes every file written since the last {@link #prepareCommit}. */
    @Override
    public void close() {
        buckets.values().forEach(BucketWriter::close);
        buckets.clear();
        byPartition.clear();
        lastPartition = null;
        lastWriters = null;
        kind.close();
    }
}
