package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.sort.SortBuffer;
import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.lsm.tree.Levels;
import dev.tarn.format.lsm.tree.UniversalCompaction;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetWriteOptions;
import dev.tarn.format.read.DataFileOpener;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

/**
 * The buckets of a primary-key table one {@link TableWrite} holds: a {@link BucketTreeWriter} per
 * (partition, bucket), started from the bucket's files in the latest snapshot, all sharing one
 * {@code write-buffer-size} of memory (past it, the fullest bucket spills or flushes) and one
 * background compaction thread.
 *
 * <p>Sequence numbers: a bucket starts above the highest sequence of its files and above the wall
 * clock in milliseconds times 2^20, so that a writer restarted before the commit of its previous
 * run's files was retried still numbers its changes after them (SPEC.md, "Sequence numbers").
 *
 * <p>Restored writers ({@link #deferRestore}) read the latest snapshot only at their first
 * checkpoint: before it, the commits of the checkpoints they were restored from may still be under
 * way.
 */
final class MergeTreeBuckets implements AutoCloseable {

    /** Spill files per bucket before it must flush: bounds open files when reading them back. */
    private static final int MAX_SPILL_FILES = 64;

    /** Threads that flush buckets at a commit: the machine's cores, at most four. */
    private static final int FLUSH_THREADS =
            Math.min(4, Runtime.getRuntime().availableProcessors());

    /** Shift of the wall-clock floor of sequence numbers: room for 2^20 changes a millisecond. */
    private static final int CLOCK_SHIFT = 20;

    private final Table table;
    private final boolean overwrite;
    private final TableConfig.Lsm config;
    private final KeyValueSchema schema;
    private final ParquetWriteOptions parquetOptions;
    private final UniversalCompaction picker;
    private final Supplier<MergeFunction> merges;
    private final Map<PublishedFiles.Bucket, BucketTreeWriter> writers = new LinkedHashMap<>();
    private final Map<PublishedFiles.Bucket, BucketLedger> ledgers = new HashMap<>();
    @Nullable private PublishedFiles published;
    @Nullable private ExecutorService compactions;
    @Nullable private ExecutorService flushes;
    @Nullable private java.nio.file.Path spillDirectory;
    private long memoryUsed;
    private boolean restorePending;

    /**
     * @param overwrite the commit replaces the buckets' files: start empty, and hand out only the
     *     final files of each bucket
     */
    MergeTreeBuckets(Table table, ParquetWriteOptions parquetOptions, boolean overwrite) {
        this.table = table;
        this.overwrite = overwrite;
        this.config = table.config().lsm();
        this.schema = KeyValueSchema.of(table.schema());
        this.parquetOptions = parquetOptions;
        Map<String, String> options = table.options();
        this.picker = UniversalCompaction.fromOptions(options);
        int[] keys = table.schema().fieldIndexes(table.schema().primaryKeys());
        MergeEngine engine = config.mergeEngine();
        // Built once here so a bad merge option fails before the first row.
        MergeFunctions.create(engine, schema.tableType(), keys, options);
        this.merges = () -> MergeFunctions.create(engine, schema.tableType(), keys, options);
    }

    void write(Partition partition, int bucket, RowData row) throws IOException {
        BucketTreeWriter writer = writer(partition, bucket);
        long before = writer.memoryUsed();
        writer.write(row);
        memoryUsed += writer.memoryUsed() - before;
        if (memoryUsed > config.writeBufferSize()) {
            relieveMemory();
        }
    }

    /**
     * Reads the buckets' published files at the first {@link #prepareCommit} of a checkpoint, not
     * earlier; until then buckets flush level-0 files and do not compact.
     */
    void deferRestore() {
        if (!overwrite) {
            restorePending = true;
        }
    }

    List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException {
        flushInParallel();
        boolean following = !overwrite && !endOfInput && published != null;
        if (following) {
            followTable();
        }
        int totalBuckets = table.config().bucket();
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<PublishedFiles.Bucket, BucketTreeWriter> e : writers.entrySet()) {
            PublishedFiles.Bucket key = e.getKey();
            BucketTreeWriter.Changes changes = e.getValue().prepareCommit(endOfInput || overwrite);
            if (overwrite) {
                messages.add(
                        CommitMessage.append(
                                key.partition(), key.bucket(), totalBuckets, finalFiles(changes)));
                continue;
            }
            ledgers.computeIfAbsent(key, k -> new BucketLedger()).handedOut(changes);
            messages.add(
                    CommitMessage.append(
                            key.partition(), key.bucket(), totalBuckets, changes.newFiles()));
            messages.add(
                    new CommitMessage(
                            key.partition(),
                            key.bucket(),
                            totalBuckets,
                            changes.compactAfter(),
                            changes.compactBefore()));
        }
        memoryUsed = writers.values().stream().mapToLong(BucketTreeWriter::memoryUsed).sum();
        messages.removeIf(CommitMessage::isEmpty);
        if (restorePending && !endOfInput) {
            // A checkpoint barrier: the job's tasks all finished their restore before it was
            // triggered, so the committer has published what it recovered.
            restorePending = false;
            PublishedFiles files = published();
            writers.forEach((key, w) -> w.restore(files.files(key)));
        } else if (following) {
            rebuildStaleBuckets();
        }
        return messages;
    }

    /**
     * Reads what the snapshots published since the last checkpoint changed in this write's buckets;
     * a bucket another writer or a compaction job changed, or whose compaction a commit dropped,
     * stops compacting until {@link #rebuildStaleBuckets} can rebuild its view.
     */
    private void followTable() {
        published.advance(
                new PublishedFiles.Listener() {
                    @Override
                    public void changed(
                            PublishedFiles.Bucket bucket, PublishedFiles.Change change) {
                        BucketTreeWriter writer = writers.get(bucket);
                        BucketLedger ledger = ledgers.get(bucket);
                        boolean own = ledger == null || ledger.observe(change);
                        if (writer != null && !own && !writer.isStale()) {
                            writer.markStale();
                        }
                    }

                    @Override
                    public void reset() {
                        writers.values().stream()
                                .filter(w -> !w.isStale())
                                .forEach(BucketTreeWriter::markStale);
                    }
                });
    }

    /** Gives each stale bucket whose compactions are settled its files as the table has them. */
    private void rebuildStaleBuckets() throws IOException {
        for (Map.Entry<PublishedFiles.Bucket, BucketTreeWriter> e : writers.entrySet()) {
            BucketTreeWriter writer = e.getValue();
            BucketLedger ledger = ledgers.get(e.getKey());
            if (!writer.isStale() || ledger == null) {
                continue;
            }
            Path dir = table.bucketPath(e.getKey().partition(), e.getKey().bucket());
            if (ledger.settled(name -> exists(new Path(dir, name)))) {
                writer.rebuild(ledger.rebuild(published.files(e.getKey())));
            }
        }
    }

    private boolean exists(Path path) {
        try {
            return table.io().exists(path);
        } catch (IOException e) {
            return true; // Unknown: wait for the next checkpoint rather than guess.
        }
    }

    /**
     * Writes every bucket's buffer at once, a bucket per thread: the task waits for the files at a
     * checkpoint anyway, and its other cores would idle meanwhile.
     */
    private void flushInParallel() throws IOException {
        List<BucketTreeWriter> buckets = new ArrayList<>(writers.values());
        if (buckets.size() < 2 || FLUSH_THREADS < 2) {
            return; // Each writer flushes itself in its prepareCommit.
        }
        if (flushes == null) {
            flushes = Executors.newFixedThreadPool(FLUSH_THREADS, daemon("tarn-flush-"));
        }
        List<Future<List<DataFile>>> written = new ArrayList<>();
        for (BucketTreeWriter writer : buckets) {
            written.add(flushes.submit(writer::writeBuffer));
        }
        IOException failure = null;
        for (int i = 0; i < buckets.size(); i++) {
            try {
                buckets.get(i).addFlushed(written.get(i).get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (failure == null) {
                    failure =
                            cause instanceof IOException io
                                    ? io
                                    : new IOException(
                                            "Cannot flush a bucket of table "
                                                    + table.name()
                                                    + ": "
                                                    + cause.getMessage(),
                                            cause);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while flushing " + table.name());
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private ThreadFactory daemon(String prefix) {
        return r -> {
            Thread t = new Thread(r, prefix + table.name());
            t.setDaemon(true);
            return t;
        };
    }

    /** Bytes written so far by flushes and by compactions, over all open buckets. */
    TableWrite.WrittenBytes writtenBytes() {
        long flushed = 0;
        long compacted = 0;
        for (BucketTreeWriter writer : writers.values()) {
            flushed += writer.bytesFlushed();
            compacted += writer.bytesCompacted();
        }
        return new TableWrite.WrittenBytes(flushed, compacted);
    }

    /** Compacts one bucket fully now; its changes come with the next prepareCommit. */
    void compactFully(Partition partition, int bucket) throws IOException {
        writer(partition, bucket).compactFully();
    }

    @Override
    public void close() {
        writers.values().forEach(BucketTreeWriter::close);
        writers.clear();
        if (compactions != null) {
            compactions.shutdownNow();
            compactions = null;
        }
        if (flushes != null) {
            flushes.shutdownNow();
            flushes = null;
        }
        if (spillDirectory != null) {
            try (var files = Files.list(spillDirectory)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(spillDirectory);
            } catch (IOException ignored) {
                // A temporary directory; the operating system cleans it up eventually.
            }
            spillDirectory = null;
        }
    }

    /** In an overwrite nothing is published before the commit: only the surviving files count. */
    private List<DataFile> finalFiles(BucketTreeWriter.Changes changes) {
        List<DataFile> files = new ArrayList<>(changes.newFiles());
        files.addAll(changes.compactAfter());
        files.removeAll(changes.compactBefore());
        return files;
    }

    private void relieveMemory() throws IOException {
        BucketTreeWriter fullest =
                writers.values().stream()
                        .max(Comparator.comparingLong(BucketTreeWriter::memoryUsed))
                        .orElseThrow();
        fullest.releaseMemory();
        memoryUsed = writers.values().stream().mapToLong(BucketTreeWriter::memoryUsed).sum();
    }

    private BucketTreeWriter writer(Partition partition, int bucket) throws IOException {
        PublishedFiles.Bucket key = new PublishedFiles.Bucket(partition, bucket);
        BucketTreeWriter writer = writers.get(key);
        if (writer != null) {
            return writer;
        }
        Path dir = table.bucketPath(partition, bucket);
        KeyValueFileWriter.Target target =
                new KeyValueFileWriter.Target(
                        table.io(),
                        dir,
                        schema,
                        parquetOptions,
                        table.config().sizes().targetFileSize(),
                        table.schema().id());
        List<DataFile> files = overwrite || restorePending ? List.of() : published().files(key);
        Levels levels = new Levels(schema, picker.maxLevel(), files);
        long firstSequence =
                Math.max(levels.maxSequence() + 1, System.currentTimeMillis() << CLOCK_SHIFT);
        writer =
                new BucketTreeWriter(
                        new BucketTreeWriter.Setup(
                                schema,
                                merges,
                                picker,
                                compactions(),
                                config.sortedRunStopTrigger(),
                                config.fullCompactionDeltaCommits()),
                        target,
                        new DataFileOpener(table, dir, schema.fileType(), null, "compaction")::open,
                        levels,
                        buffer(),
                        firstSequence);
        if (restorePending) {
            writer.awaitRestore();
        }
        writers.put(key, writer);
        return writer;
    }

    private SortBuffer buffer() throws IOException {
        if (!config.spillable()) {
            return SortBuffer.inMemory(schema.keys(), config.writeBufferSize());
        }
        if (spillDirectory == null) {
            spillDirectory = Files.createTempDirectory("tarn-spill-");
        }
        return SortBuffer.spillable(
                schema.keys(), config.writeBufferSize(), spillDirectory, MAX_SPILL_FILES);
    }

    private ExecutorService compactions() {
        if (compactions == null) {
            compactions = Executors.newSingleThreadExecutor(daemon("tarn-compaction-"));
        }
        return compactions;
    }

    /** The live files of every bucket: of the latest snapshot when first asked, then followed. */
    private PublishedFiles published() {
        if (published == null) {
            published = PublishedFiles.ofLatest(table);
        }
        return published;
    }
}
