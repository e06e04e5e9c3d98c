package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.compaction.UniversalCompaction;
import dev.tarn.format.lsm.lookup.BucketVectors;
import dev.tarn.format.lsm.lookup.LookupChangelog;
import dev.tarn.format.lsm.lookup.LookupMemory;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.run.SortedRun;
import dev.tarn.format.lsm.sort.SortBuffer;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.VectorChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The writer of one bucket of a primary-key table: gives every change the next sequence number,
 * sorts changes in a {@link SortBuffer}, flushes them as level-0 files and keeps the bucket's
 * {@link Levels} compacted by {@link UniversalCompaction}, one compaction at a time on a background
 * executor while writing goes on ({@link BucketCompactions}). Writing waits for compaction only
 * past {@code num-sorted-run.stop-trigger} runs, at a full compaction, or when asked to at a
 * commit.
 *
 * <p>What changed since the last {@link #prepareCommit} is returned by it: new level-0 files, and
 * the inputs and outputs of finished compactions. A compaction output compacted again before it was
 * handed out is deleted at once; nothing else written is deleted here, unless the writer is closed
 * before handing it out. Not thread-safe: one task thread calls it; only compaction tasks run
 * elsewhere.
 *
 * <p>A writer may start before the bucket's published files are known ({@link #awaitRestore}):
 * until {@link #restore} it only flushes level-0 files and never compacts, since a compaction that
 * does not see every file could drop a tombstone that an unseen older file still needs.
 *
 * <p>Another writer or a compaction job may replace the bucket's files under it, and a commit then
 * drops this writer's compaction of them. The writer is then {@linkplain #markStale stale}: it
 * stops compacting, throws away compaction results not yet handed out, and keeps flushing level-0
 * files until its owner {@linkplain #rebuild rebuilds} its view from the table. A compaction that
 * finds one of its input files gone (deleted by the commit that dropped it) makes it stale too.
 *
 * <p>With a changelog producer it also writes changelog files, handed out with the commit: its
 * input as it comes ({@code input}), or, at each flush, the changes of the rows the flush makes
 * ({@code lookup}, {@link LookupChangelog}: the previous row of each key it changes, from an index
 * of the bucket's current rows, alone where the level-0 files hold the rest of the changes); or
 * each full compaction, the changes of the rows of the last level ({@code full-compaction}, {@code
 * FullCompactionChangelog}), handed out with the compaction.
 *
 * <p>With deletion vectors each flushed change goes through {@link VectorWrites}, which marks the
 * row it replaces; the vectors are handed out with the commit.
 *
 * <p>Made by {@link BucketTrees#open}, which holds what the buckets of one table write share. Over
 * 400 lines because its states (awaiting restore, writing, stale, rebuilt) and what each allows of
 * flushes and compactions are one invariant, kept in one place; how a flush writes with deletion
 * vectors is {@link VectorWrites}', the compactions are {@link BucketCompactions}'.
 */
public final class BucketTreeWriter implements AutoCloseable {

    /** What a bucket's writer shares with the other buckets of its table write. */
    record Setup(
            KeyValueSchema schema,
            Supplier<MergeFunction> merges,
            UniversalCompaction picker,
            ExecutorService compactions,
            int stopTrigger,
            int fullCompactionEvery,
            ChangelogSetup changelog,
            @Nullable VectorSetup vectors) {}

    /**
     * How the buckets of a table with deletion vectors keep them (SPEC.md, "Deletion vectors").
     *
     * @param memory what the lookup indexes of the buckets share: each key's location is needed
     *     whatever the changelog producer
     * @param maintained whether a file was written with vectors maintained (under a schema with
     *     them on); a bucket holding any other is compacted fully before its first flush
     * @param rewriteRatio the share of a file's rows deleted from which the bucket's writer
     *     rewrites it on its own ({@code compaction.delete-ratio-threshold}); 1 for never
     */
    record VectorSetup(LookupMemory memory, Predicate<DataFile> maintained, double rewriteRatio) {}

    /**
     * The changes of one commit: added level-0 files, what compaction replaced with what, the
     * changelog files of the input since the last commit, and those of the full compactions, which
     * belong to the compaction.
     */
    public record Changes(
            List<DataFile> newFiles,
            List<DataFile> compactBefore,
            List<DataFile> compactAfter,
            List<DataFile> changelogFiles,
            List<DataFile> compactChangelog,
            List<VectorChange> vectors,
            List<VectorChange> compactVectors) {}

    private final Setup setup;
    private final KeyValueFileWriter.Target target;
    private final BucketTreeReader.ColumnOpener opener;
    private final Levels levels;
    private final SortBuffer buffer;
    private final MergeFunction merge;
    private final BucketCompactions compactions;
    private final long firstSequence;
    private long nextSequence;
    private long bytesFlushed;
    private long flushes;
    private long spills;
    private boolean awaitingRestore;
    private boolean stale;
    private final FullCompactionSchedule fullCompactions;

    private final List<DataFile> newFiles = new ArrayList<>();
    @Nullable private final KeyValueFileWriter changelog;
    @Nullable private final LookupChangelog lookup;
    @Nullable private final BucketVectors vectors;
    @Nullable private final VectorWrites vectorWrites;

    /**
     * @param firstSequence the sequence of the first change; above every sequence in {@code levels}
     */
    BucketTreeWriter(
            Setup setup,
            KeyValueFileWriter.Target target,
            BucketTreeReader.ColumnOpener opener,
            Levels levels,
            SortBuffer buffer,
            long firstSequence,
            @Nullable BucketVectors vectors) {
        this.setup = setup;
        this.vectors = vectors;
        this.target = target;
        this.opener = opener;
        this.levels = levels;
        this.buffer = buffer;
        this.merge = setup.merges().get();
        RowType fileType = setup.schema().fileType();
        this.firstSequence = firstSequence;
        this.nextSequence = firstSequence;
        ChangelogSetup changes = setup.changelog();
        this.changelog =
                changes.storesInput()
                        ? new KeyValueFileWriter(target.forChangelog(), 0, FileContent.CHANGELOG)
                        : null;
        this.lookup =
                vectors == null
                        ? changes.newLookup(
                                setup.schema(), setup.merges(), opener, this::treeFiles, target)
                        : changes.newVectorLookup(
                                setup.schema(),
                                setup.merges(),
                                VectorWrites.withVectors(opener, vectors),
                                this::treeFiles,
                                target,
                                setup.vectors().memory(),
                                vectors);
        this.vectorWrites =
                vectors == null ? null : new VectorWrites(setup, target, opener, lookup, vectors);
        this.compactions =
                new BucketCompactions(
                        setup,
                        target,
                        f -> opener.open(f, fileType),
                        vectors == null
                                ? opener::hasDeletions
                                : f -> vectors.vector(f.fileName()) != null,
                        levels,
                        vectors,
                        vectors == null ? null : lookup);
        this.fullCompactions = FullCompactionSchedule.of(setup);
        fullCompactions.started(levels.runs());
    }

    /** From now until {@link #restore}, the levels lack the bucket's published files. */
    public void awaitRestore() {
        awaitingRestore = true;
        if (lookup != null) {
            lookup.awaitCatchUp();
        }
    }

    /**
     * Adds the bucket's published files, all older than this writer's changes, and lets compaction
     * run again.
     *
     * <p>With {@code changelog-producer} = {@code lookup}, the changes flushed meanwhile are looked
     * up now.
     *
     * @throws IllegalStateException if a file holds a sequence number this writer also gave out
     */
    public void restore(Collection<DataFile> published) throws IOException {
        restore(published, Map.of());
    }

    /**
     * As {@link #restore(Collection)}, with the published vectors of the files, by file name. With
     * deletion vectors, a bucket holding files written without them is first compacted fully, and
     * what the writer flushed meanwhile (as it came, not knowing the rows it replaced) is written
     * again, with the rows it replaces marked.
     */
    public void restore(Collection<DataFile> published, Map<String, DeletionFile> places)
            throws IOException {
        if (!awaitingRestore) {
            throw new IllegalStateException("Bucket " + target.dir() + " was restored already");
        }
        for (DataFile file : published) {
            if (file.sequence().max() >= firstSequence) {
                throw new IllegalStateException(
                        String.format(
                                "Cannot restore bucket %s: its file %s holds sequence number %d,"
                                        + " not below this writer's first %d (a clock far behind"
                                        + " the previous writer's?); restart the writer",
                                target.dir(),
                                file.fileName(),
                                file.sequence().max(),
                                firstSequence));
            }
        }
        if (vectors != null) {
            vectors.restore(published, places);
        }
        List<DataFile> pending = List.copyOf(newFiles);
        if (vectors != null) {
            levels.replace(pending, List.of());
        }
        published.forEach(levels::addFile);
        awaitingRestore = false;
        fullCompactions.started(levels.runs());
        if (lookup != null) {
            lookup.catchUp(List.of());
        }
        if (vectors != null) {
            startWithVectors(published, pending);
        }
    }

    /**
     * Compacts a bucket holding files written without vectors fully, then writes the files flushed
     * before the restore ({@code pending}, out of the levels) again with vectors.
     */
    void startWithVectors(Collection<DataFile> published, List<DataFile> pending)
            throws IOException {
        if (published.stream().anyMatch(f -> !setup.vectors().maintained().test(f))) {
            if (startCompaction(true)) {
                collectCompaction(true);
            }
            lookup.invalidate();
        }
        if (pending.isEmpty()) {
            return;
        }
        List<DataFile> rewritten = vectorWrites.rewrite(pending);
        newFiles.clear();
        for (DataFile f : rewritten) {
            levels.addLevel0(f);
            newFiles.add(f);
        }
        vectorWrites.discard(pending);
    }

    /**
     * For a writer still {@linkplain #awaitRestore awaiting its restore} at the end of its input:
     * looks up what it flushed, and will flush, against {@code published}, without taking them into
     * its tree (it still does not compact). No effect without a lookup changelog.
     */
    public void lookUpAgainst(Collection<DataFile> published) throws IOException {
        if (vectors != null && awaitingRestore) {
            // A writer with vectors must know the rows it replaces: it takes them in.
            restore(published, Map.of());
            return;
        }
        if (lookup != null && awaitingRestore) {
            lookup.catchUp(published);
        }
    }

    /**
     * The bucket's files changed under this writer: stops a running compaction, deletes the results
     * of those not yet handed out by {@link #prepareCommit}, and compacts no more until {@link
     * #rebuild}. Level-0 files flushed meanwhile are handed out as usual.
     */
    public void markStale() {
        if (vectors != null) {
            throw new IllegalStateException(
                    String.format(
                            "Another job changed bucket %s while this writer kept its deletion"
                                    + " vectors (a compaction job, or a second writer): the"
                                    + " writer restarts from its last checkpoint to read the"
                                    + " bucket anew. A table with 'deletion-vectors.enabled' is"
                                    + " best compacted by its own writer",
                            target.dir()));
        }
        stale = true;
        compactions.cancel();
        compactions.discardUnpublished();
    }

    /** Whether the view of the bucket's files is out of date ({@link #markStale}). */
    public boolean isStale() {
        return stale;
    }

    /**
     * Replaces the view of the bucket's files with {@code files} (the table's, plus this writer's
     * files not yet published) and compacts again.
     *
     * @throws IllegalStateException if the writer is not {@linkplain #isStale stale}
     */
    public void rebuild(Collection<DataFile> files) {
        if (!stale) {
            throw new IllegalStateException("Bucket " + target.dir() + " is not stale");
        }
        levels.resetTo(files);
        stale = false;
        if (lookup != null) {
            lookup.invalidate();
        }
    }

    /** Adds one change; its kind is the row's. The row may be reused once this returns. */
    public void write(RowData row) throws IOException {
        long sequence = nextSequence++;
        if (changelog != null
                && (setup.changelog().kind() == ChangelogSetup.Kind.ALL
                        || !KeyValue.isRetraction(row.getRowKind()))) {
            changelog.writeChange(sequence, row.getRowKind(), row);
        }
        if (!buffer.put(sequence, row.getRowKind(), row)) {
            flush();
            if (!buffer.put(sequence, row.getRowKind(), row)) {
                throw new IllegalStateException("An empty sort buffer refused a row");
            }
        }
    }

    /** Bytes of memory the bucket's buffer holds. */
    public long memoryUsed() {
        return buffer.memoryUsed();
    }

    /**
     * Frees the buffer's memory for other buckets: spills it to local disk if it may, otherwise
     * flushes it as a level-0 file.
     */
    public void releaseMemory() throws IOException {
        if (!buffer.spillAndRelease()) {
            flush();
            buffer.releaseMemory();
        } else {
            spills++;
        }
    }

    /** Writes the buffered changes as level-0 files, then compacts if the levels call for it. */
    public void flush() throws IOException {
        collectCompaction(false);
        addFlushed(writeBuffer());
    }

    /**
     * Writes the buffered changes as level-0 files and empties the buffer, changing nothing else:
     * {@link #addFlushed} takes the files in. The one step another thread may run (while this
     * writer's thread waits), so the buckets of a table write flush in parallel at a checkpoint.
     */
    public List<DataFile> writeBuffer() throws IOException {
        if (buffer.size() == 0) {
            return List.of();
        }
        KeyValueFileWriter writer = new KeyValueFileWriter(target, 0);
        boolean lookingUp = lookup != null && lookup.begin();
        List<DataFile> flushed;
        try {
            // Tombstones stay: older files (or files of a commit still pending) may hold the key.
            Iterator<KeyValue> changes = buffer.merged(merge);
            while (changes.hasNext()) {
                KeyValue change = changes.next();
                if (lookingUp && vectorWrites != null) {
                    vectorWrites.write(writer, change);
                    continue;
                }
                writer.write(change);
                if (lookingUp) {
                    lookup.apply(change);
                }
            }
            flushed = writer.finish();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        } finally {
            if (lookingUp) {
                lookup.end();
            }
        }
        if (lookup != null && !lookingUp && vectors == null) {
            lookup.addPending(flushed);
        }
        buffer.clear();
        return flushed;
    }

    /** Takes in files of {@link #writeBuffer} as the newest level-0 runs; compacts if due. */
    public void addFlushed(List<DataFile> flushed) throws IOException {
        if (flushed.isEmpty()) {
            return;
        }
        flushes++;
        for (DataFile file : flushed) {
            levels.addLevel0(file);
            newFiles.add(file);
            bytesFlushed += file.fileSize();
        }
        startCompaction(false);
        while (levels.runCount() > setup.stopTrigger() && compactions.isRunning()) {
            collectCompaction(true);
            startCompaction(false);
        }
    }

    /**
     * Flushes and returns the changes since the last call. With {@code waitForCompaction} (at the
     * end of a bounded input) a running compaction is awaited so its result is part of this commit;
     * so is a full compaction when {@link FullCompactionSchedule} says it is due.
     */
    public Changes prepareCommit(boolean waitForCompaction) throws IOException {
        flush();
        if (fullCompactions.commit(waitForCompaction) && !awaitingRestore && !stale) {
            compactFully();
        } else {
            collectCompaction(waitForCompaction);
        }
        compactions.dropAllDeleted();
        List<DataFile> input =
                changelog != null
                        ? changelog.finish()
                        : lookup != null ? lookup.finish() : List.of();
        BucketVectors.Commit vectorChanges =
                vectors == null
                        ? new BucketVectors.Commit(List.of(), List.of())
                        : vectors.prepareCommit(
                                newFiles, compactions.before(), compactions.after());
        Changes changes =
                new Changes(
                        List.copyOf(newFiles),
                        compactions.before(),
                        compactions.after(),
                        input,
                        compactions.changelog(),
                        vectorChanges.appended(),
                        vectorChanges.compacted());
        newFiles.clear();
        compactions.handedOut();
        return changes;
    }

    /** Flushes, then merges every run of the bucket into one at the last level, and waits. */
    public void compactFully() throws IOException {
        if (awaitingRestore) {
            throw new IllegalStateException(
                    "Cannot compact bucket " + target.dir() + " before its files are restored");
        }
        flush();
        collectCompaction(true);
        if (startCompaction(true)) {
            collectCompaction(true);
        }
        if (!stale) {
            fullCompactions.done();
        }
    }

    /** The bucket's level-0 files (flushed, not yet compacted) as this writer knows them. */
    public int level0Files() {
        return levels.level0Count();
    }

    /** Whether a compaction of this bucket runs (or finished and awaits collection). */
    public boolean compacting() {
        return compactions.isRunning();
    }

    /** How long this bucket's last finished compaction ran, in milliseconds; 0 before one. */
    public long lastCompactionMillis() {
        return compactions.lastMillis();
    }

    /** How many times this writer flushed its buffer into level-0 files. */
    public long flushes() {
        return flushes;
    }

    /** How many times this writer spilled its buffer to local disk to free memory. */
    public long spills() {
        return spills;
    }

    /** Bytes of level-0 files this writer flushed. */
    public long bytesFlushed() {
        return bytesFlushed;
    }

    /** Bytes of files its finished compactions wrote. */
    public long bytesCompacted() {
        return compactions.bytesCompacted();
    }

    /** The bucket's sorted runs as this writer knows them, newest first. */
    List<SortedRun> runs() {
        return levels.runs();
    }

    private List<DataFile> treeFiles() {
        List<DataFile> files = new ArrayList<>();
        levels.runs().forEach(r -> files.addAll(r.files()));
        return files;
    }

    /**
     * Stops a running compaction and deletes every file not yet returned by {@link #prepareCommit};
     * published files are kept.
     */
    @Override
    public void close() {
        compactions.cancel();
        if (changelog != null) {
            changelog.abort();
        }
        if (lookup != null) {
            lookup.close();
        }
        DataFiles.deleteUnreferenced(target.io(), target.dir(), newFiles);
        newFiles.clear();
        compactions.discardUnpublished();
        buffer.close();
    }

    /** Starts a compaction if none runs and the levels call for one; true if one started. */
    private boolean startCompaction(boolean full) {
        return !awaitingRestore && !stale && compactions.start(full);
    }

    /** Applies a finished compaction; with {@code block}, waits for a running one first. */
    private void collectCompaction(boolean block) throws IOException {
        if (!compactions.collect(block)) {
            markStale();
        }
    }
}
