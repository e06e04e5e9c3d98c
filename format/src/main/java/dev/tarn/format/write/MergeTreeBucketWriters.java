package dev.tarn.format.write;

import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.StreamConfig.ChangelogProducer;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * The primary-key kind's {@link BucketWriters}: what the buckets of one {@link TableWrite} share.
 * Each bucket is a {@link MergeTreeBucketWriter} around a {@link BucketTreeWriter}, started by
 * {@link BucketTrees} from the bucket's files in the latest snapshot, all sharing one {@code
 * write-buffer-size} of memory (past it, the fullest bucket spills or flushes) and, through {@code
 * BucketTrees}, one background compaction thread.
 *
 * <p>Sequence numbers: a bucket starts above the highest sequence of its files and above the wall
 * clock in milliseconds times 2^20, so that a writer restarted before the commit of its previous
 * run's files was retried still numbers its changes after them (SPEC.md, "Sequence numbers").
 *
 * <p>Restored writers ({@link #deferRestore}) read the latest snapshot only at their first
 * checkpoint: before it, the commits of the checkpoints they were restored from may still be under
 * way.
 */
final class MergeTreeBucketWriters implements BucketWriters {

    /** Threads that flush buckets at a commit: the machine's cores, at most four. */
    private static final int FLUSH_THREADS =
            Math.min(4, Runtime.getRuntime().availableProcessors());

    /** Shift of the wall-clock floor of sequence numbers: room for 2^20 changes a millisecond. */
    private static final int CLOCK_SHIFT = 20;

    private final TableContext table;
    private final boolean overwrite;
    private final long writeBufferSize;
    private final boolean lookupChangelog;
    private final PublishedVectors vectors;
    private final BucketTrees trees;
    private final Map<BucketId, MergeTreeBucketWriter> writers = new LinkedHashMap<>();
    @Nullable private PublishedFiles published;
    @Nullable private ExecutorService flushes;
    private long memoryUsed;
    private boolean restorePending;
    private boolean following;

    /**
     * @param overwrite the commit replaces the buckets' files: start empty, and hand out only the
     *     final files of each bucket
     * @param vectors applied to the published files each bucket reads
     */
    MergeTreeBucketWriters(
            TableContext table,
            ParquetDataWriter.Options parquetOptions,
            boolean overwrite,
            PublishedVectors vectors) {
        this.table = table;
        this.overwrite = overwrite;
        this.vectors = vectors;
        this.writeBufferSize = table.config().lsm().memory().writeBufferSize();
        this.lookupChangelog =
                table.config().stream().changelogProducer() == ChangelogProducer.LOOKUP;
        // Checks the options here, so a bad merge option fails before the first row.
        this.trees =
                new BucketTrees(
                        table.name(),
                        table.schema(),
                        table.options(),
                        table.config(),
                        table.io(),
                        parquetOptions,
                        overwrite,
                        this::writtenWithVectors);
    }

    /** Whether {@code file} was written with deletion vectors kept (SPEC.md). */
    private boolean writtenWithVectors(DataFile file) {
        long id = file.schemaId();
        return id == table.schema().id()
                ? table.config().lsm().deletionVectors()
                : Boolean.parseBoolean(
                        table.schema(id)
                                .options()
                                .getOrDefault(LsmOptions.DELETION_VECTORS_ENABLED.key(), "false"));
    }

    @Override
    public void spillUnder(java.nio.file.Path parent) {
        trees.spillUnder(parent);
    }

    boolean overwrite() {
        return overwrite;
    }

    int totalBuckets() {
        return table.config().bucket();
    }

    /** A bucket's buffer grew or shrank; past the budget, the fullest bucket lets go. */
    void memoryChanged(long delta) throws IOException {
        memoryUsed += delta;
        if (memoryUsed > writeBufferSize) {
            BucketTreeWriter fullest =
                    writers.values().stream()
                            .map(MergeTreeBucketWriter::tree)
                            .max(Comparator.comparingLong(BucketTreeWriter::memoryUsed))
                            .orElseThrow();
            fullest.releaseMemory();
            recountMemory();
        }
    }

    private void recountMemory() {
        memoryUsed = writers.values().stream().mapToLong(w -> w.tree().memoryUsed()).sum();
    }

    /**
     * Reads the buckets' published files at the first commit of a checkpoint, not earlier; until
     * then buckets flush level-0 files and do not compact.
     */
    @Override
    public void deferRestore() {
        if (!overwrite) {
            restorePending = true;
        }
    }

    @Override
    public void beforeCommit(boolean endOfInput) throws IOException {
        following = !overwrite && !endOfInput && published != null;
        if (restorePending && !endOfInput) {
            // A checkpoint barrier: the job's tasks all finished their restore before it was
            // triggered, so the committer has published what it recovered. Restored before the
            // flush, so that a lookup changelog of this commit sees those files.
            restorePending = false;
            PublishedFiles files = published();
            for (Map.Entry<BucketId, MergeTreeBucketWriter> w : writers.entrySet()) {
                w.getValue().tree().restore(files.files(w.getKey()), files.vectors(w.getKey()));
            }
        } else if (restorePending && lookupChangelog) {
            // The input ended before the first checkpoint: the committer may still be publishing
            // what it recovered. A lookup changelog looks up against the latest snapshot as it is
            // now, which holds those files unless that commit is still under way.
            PublishedFiles files = PublishedFiles.ofLatest(table);
            for (Map.Entry<BucketId, MergeTreeBucketWriter> w : writers.entrySet()) {
                w.getValue().tree().lookUpAgainst(files.files(w.getKey()));
            }
        }
        flushInParallel();
        if (following) {
            followTable();
        }
    }

    @Override
    public void afterCommit(boolean endOfInput) throws IOException {
        recountMemory();
        if (following) {
            rebuildStaleBuckets();
        }
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
                    public void changed(BucketId bucket, PublishedFiles.Change change) {
                        MergeTreeBucketWriter owner = writers.get(bucket);
                        BucketTreeWriter writer = owner == null ? null : owner.tree();
                        boolean own = owner == null || owner.ledger().observe(change);
                        if (writer != null && !own && !writer.isStale()) {
                            writer.markStale();
                        }
                    }

                    @Override
                    public void reset() {
                        writers.values().stream()
                                .map(MergeTreeBucketWriter::tree)
                                .filter(w -> !w.isStale())
                                .forEach(BucketTreeWriter::markStale);
                    }
                });
    }

    /** Gives each stale bucket whose compactions are settled its files as the table has them. */
    private void rebuildStaleBuckets() throws IOException {
        for (MergeTreeBucketWriter bucket : writers.values()) {
            BucketTreeWriter writer = bucket.tree();
            if (!writer.isStale()) {
                continue;
            }
            Path dir = table.bucketPath(bucket.bucket());
            if (bucket.ledger().settled(name -> exists(new Path(dir, name)))) {
                writer.rebuild(bucket.ledger().rebuild(published.files(bucket.bucket())));
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
        List<BucketTreeWriter> buckets =
                writers.values().stream().map(MergeTreeBucketWriter::tree).toList();
        if (buckets.size() < 2 || FLUSH_THREADS < 2) {
            return; // Each writer flushes itself in its prepareCommit.
        }
        if (flushes == null) {
            flushes =
                    Executors.newFixedThreadPool(
                            FLUSH_THREADS,
                            r -> {
                                Thread t = new Thread(r, "tarn-flush-" + table.name());
                                t.setDaemon(true);
                                return t;
                            });
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

    @Override
    public TableWrite.WrittenBytes writtenBytes() {
        long flushed = 0;
        long compacted = 0;
        for (MergeTreeBucketWriter writer : writers.values()) {
            flushed += writer.tree().bytesFlushed();
            compacted += writer.tree().bytesCompacted();
        }
        return new TableWrite.WrittenBytes(flushed, compacted);
    }

    @Override
    public long bufferBytes() {
        return memoryUsed;
    }

    @Override
    public WriteStats stats(long bufferBytes) {
        long flushed = 0;
        long spilled = 0;
        long maxLevel0 = 0;
        long level0 = 0;
        int running = 0;
        long lastCompaction = 0;
        for (MergeTreeBucketWriter writer : writers.values()) {
            BucketTreeWriter tree = writer.tree();
            flushed += tree.flushes();
            spilled += tree.spills();
            maxLevel0 = Math.max(maxLevel0, tree.level0Files());
            level0 += tree.level0Files();
            running += tree.compacting() ? 1 : 0;
            lastCompaction = Math.max(lastCompaction, tree.lastCompactionMillis());
        }
        return new WriteStats(
                new WriteStats.Buffer(bufferBytes, writeBufferSize, flushed, spilled),
                new WriteStats.Level0(
                        maxLevel0, writers.isEmpty() ? 0 : (double) level0 / writers.size()),
                new WriteStats.Compaction(running, lastCompaction),
                new WriteStats.Lookup(trees.lookupIndexes(), trees.lookupMemoryBytes()));
    }

    @Override
    public void close() {
        writers.clear();
        trees.close();
        if (flushes != null) {
            flushes.shutdownNow();
            flushes = null;
        }
    }

    @Override
    public BucketWriter open(BucketId key) throws IOException {
        Path dir = table.bucketPath(key);
        List<DataFile> files = overwrite || restorePending ? List.of() : published().files(key);
        DataFileOpener opener =
                new DataFileOpener(
                        table, dir, trees.fileType(), null, "compaction or lookup", true);
        long firstSequence = System.currentTimeMillis() << CLOCK_SHIFT;
        // A writer keeping vectors applies them itself, as its flushes change them.
        BucketTreeWriter tree =
                table.config().lsm().deletionVectors()
                        ? trees.open(
                                dir,
                                files,
                                opener::open,
                                firstSequence,
                                table.indexFiles(),
                                files.isEmpty() ? Map.of() : published().vectors(key))
                        : trees.open(
                                dir,
                                files,
                                VectorOpener.of(opener::open, vectors.of(key)),
                                firstSequence);
        if (restorePending) {
            tree.awaitRestore();
        }
        MergeTreeBucketWriter writer = new MergeTreeBucketWriter(key, tree, this);
        writers.put(key, writer);
        return writer;
    }

    /** The live files of every bucket: of the latest snapshot when first asked, then followed. */
    private PublishedFiles published() {
        if (published == null) {
            published = PublishedFiles.ofLatest(table);
        }
        return published;
    }
}
