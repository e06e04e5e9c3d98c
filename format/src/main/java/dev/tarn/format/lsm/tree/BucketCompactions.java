package dev.tarn.format.lsm.tree;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.lsm.compaction.CompactionTask;
import dev.tarn.format.lsm.compaction.CompactionUnit;
import dev.tarn.format.lsm.compaction.SortedRunInfo;
import dev.tarn.format.lsm.lookup.BucketVectors;
import dev.tarn.format.lsm.lookup.LookupChangelog;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.run.SortedRun;
import dev.tarn.format.lsm.run.SortedRunReader;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * The compactions of one bucket's writer: at most one {@link CompactionTask} running on the table
 * write's background executor, and what the finished ones replaced with what since the writer last
 * handed its changes out. Always: {@link #after()} holds only files never published, so an output
 * that is compacted again before it is handed out is deleted at once, without a trace. The
 * changelog files of full compactions ({@code changelog-producer} = {@code full-compaction}) stay
 * with the compactions until handed out, and go with them when they are discarded. Not thread-safe:
 * the writer's thread calls it; only the task runs elsewhere.
 */
final class BucketCompactions {

    private final BucketTreeWriter.Setup setup;
    private final KeyValueFileWriter.Target target;
    private final SortedRunReader.FileOpener opener;
    private final Predicate<DataFile> hasDeletions;
    private final Levels levels;
    private final List<DataFile> before = new ArrayList<>();
    private final List<DataFile> after = new ArrayList<>();
    private final List<DataFile> changelog = new ArrayList<>();
    private long bytesCompacted;

    /** Milliseconds the compactions of this bucket ran, set by the compaction thread. */
    private volatile long lastMillis;

    /** With deletion vectors: the bucket's, and the lookup that knows each key's location. */
    @Nullable private final BucketVectors vectors;

    @Nullable private final LookupChangelog lookup;

    /** {@link BucketVectors#marks} when the running compaction started. */
    private long marksAtStart;

    @Nullable private CompactionTask runningTask;
    @Nullable private Future<CompactionTask.Result> running;

    BucketCompactions(
            BucketTreeWriter.Setup setup,
            KeyValueFileWriter.Target target,
            SortedRunReader.FileOpener opener,
            Predicate<DataFile> hasDeletions,
            Levels levels,
            @Nullable BucketVectors vectors,
            @Nullable LookupChangelog lookup) {
        this.setup = setup;
        this.target = target;
        this.opener = opener;
        this.hasDeletions = hasDeletions;
        this.levels = levels;
        this.vectors = vectors;
        this.lookup = lookup;
    }

    /** How long the last compaction that finished ran, in milliseconds; 0 before the first. */
    long lastMillis() {
        return lastMillis;
    }

    boolean isRunning() {
        return running != null;
    }

    /**
     * Starts a compaction if none runs and the levels call for one ({@code full}: merging every run
     * into one at the last level, which a bucket that is one such run already needs only if a file
     * has deleted rows); true if one started. With deletion vectors, when the levels call for none,
     * a file whose vector deletes at least {@link BucketTreeWriter.VectorSetup#rewriteRatio} of its
     * rows is rewritten on its own, at its level (the one with the largest share).
     */
    boolean start(boolean full) {
        if (running != null) {
            return false;
        }
        List<SortedRun> runs = levels.runs();
        List<SortedRunInfo> infos = runs.stream().map(SortedRunInfo::of).toList();
        Optional<CompactionUnit> picked =
                full
                        ? setup.picker().pickFull(infos, anyDeletions(runs))
                        : setup.picker().pick(infos);
        List<SortedRun> inputs;
        CompactionUnit unit;
        if (picked.isPresent()) {
            unit = picked.get();
            inputs = runs.subList(0, unit.runCount());
        } else {
            SortedRun rewrite = full ? null : mostDeleted(runs);
            if (rewrite == null) {
                return false;
            }
            inputs = List.of(rewrite);
            // The file's level keeps its tombstones: a level may lie below it.
            unit = new CompactionUnit(1, rewrite.level(), false);
        }
        runningTask =
                new CompactionTask(
                        inputs,
                        unit,
                        target,
                        setup.merges().get(),
                        vectors == null ? opener : withVectorsAsNow(inputs),
                        setup.changelog().kind() == ChangelogSetup.Kind.FULL_COMPACTION);
        marksAtStart = vectors == null ? 0 : vectors.marks();
        CompactionTask task = runningTask;
        running =
                setup.compactions()
                        .submit(
                                () -> {
                                    long start = System.nanoTime();
                                    try {
                                        return task.call();
                                    } finally {
                                        lastMillis = (System.nanoTime() - start) / 1_000_000;
                                    }
                                });
        return true;
    }

    /**
     * The file whose vector deletes the largest share of its rows, if that share is at least the
     * threshold and not all of them ({@link #dropAllDeleted} drops those), as a run of its own;
     * null if there is none.
     */
    @Nullable
    private SortedRun mostDeleted(List<SortedRun> runs) {
        if (vectors == null || setup.vectors().rewriteRatio() >= 1) {
            return null;
        }
        double most = setup.vectors().rewriteRatio();
        SortedRun picked = null;
        for (SortedRun run : runs) {
            for (DataFile f : run.files()) {
                DeletionVector vector = vectors.vector(f.fileName());
                if (vector == null || f.rowCount() == 0) {
                    continue;
                }
                long deleted = vector.cardinality();
                double share = (double) deleted / f.rowCount();
                if (deleted < f.rowCount() && share >= most) {
                    most = share;
                    picked = new SortedRun(run.level(), List.of(f));
                }
            }
        }
        return picked;
    }

    /**
     * An opener that reads each input with a copy of its vector as it is now: flushes go on marking
     * rows while the compaction runs, and {@link LookupChangelog#relocate} carries those marks over
     * to its outputs.
     */
    private SortedRunReader.FileOpener withVectorsAsNow(List<SortedRun> inputs) {
        Map<String, DeletionVector> copies = new HashMap<>();
        for (SortedRun run : inputs) {
            for (DataFile f : run.files()) {
                DeletionVector copy = vectors.copyOf(f.fileName());
                if (copy != null) {
                    copies.put(f.fileName(), copy);
                }
            }
        }
        return f -> opener.open(f).withDeletions(copies.get(f.fileName()));
    }

    /**
     * Applies a finished compaction to the levels; with {@code block}, waits for a running one
     * first.
     *
     * @return false if the compaction failed because one of its input files is gone (a commit
     *     dropped the compaction that wrote it, or another writer's replaced it): the writer's view
     *     of the bucket is out of date, not the table; nothing was applied
     * @throws IOException if the compaction failed for another reason
     */
    boolean collect(boolean block) throws IOException {
        if (running == null || (!block && !running.isDone())) {
            return true;
        }
        CompactionTask.Result result;
        try {
            result = running.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for a compaction");
        } catch (ExecutionException e) {
            List<DataFile> inputs = runningTask.inputs();
            running = null;
            runningTask = null;
            Throwable cause = e.getCause();
            if (anyMissing(inputs)) {
                return false;
            }
            throw new IOException(
                    "Compaction of bucket " + target.dir() + " failed: " + cause.getMessage(),
                    cause);
        }
        List<DataFile> inputs = runningTask.inputs();
        List<DataFile> outputs = result.files();
        running = null;
        runningTask = null;
        if (lookup != null) {
            Set<String> names = new HashSet<>();
            inputs.forEach(f -> names.add(f.fileName()));
            lookup.relocate(names, outputs, vectors.marks() != marksAtStart);
        }
        levels.replace(inputs, outputs);
        // A changelog goes from the last level before to after: an output compacted away again
        // before the commit leaves its changelog, which the next one's continues.
        changelog.addAll(result.changelog());
        // An output of an earlier compaction not yet handed out was never published: it goes
        // away without a trace. Level-0 files are handed out as new data even when compacted
        // away before the commit, so the commit's APPEND snapshot holds every new row and its
        // COMPACT snapshot changes none.
        Set<String> unpublished = new HashSet<>();
        after.forEach(f -> unpublished.add(f.fileName()));
        List<DataFile> neverPublished = new ArrayList<>();
        for (DataFile input : inputs) {
            if (unpublished.contains(input.fileName())) {
                neverPublished.add(input);
            } else {
                before.add(input);
            }
        }
        after.removeAll(neverPublished);
        after.addAll(outputs);
        if (vectors != null) {
            neverPublished.forEach(f -> vectors.forget(f.fileName()));
        }
        outputs.forEach(f -> bytesCompacted += f.fileSize());
        deleteUnpublished(neverPublished);
        return true;
    }

    /**
     * With deletion vectors: takes the files whose rows are all deleted out of the levels, as if a
     * compaction had replaced them with nothing (SPEC.md, "Deletion vectors"); not the inputs of a
     * running compaction, which replaces them anyway.
     */
    void dropAllDeleted() {
        if (vectors == null) {
            return;
        }
        Set<String> busy = new HashSet<>();
        if (runningTask != null) {
            runningTask.inputs().forEach(f -> busy.add(f.fileName()));
        }
        Set<String> unpublished = new HashSet<>();
        after.forEach(f -> unpublished.add(f.fileName()));
        List<DataFile> gone = new ArrayList<>();
        for (SortedRun run : levels.runs()) {
            for (DataFile f : run.files()) {
                if (!busy.contains(f.fileName()) && vectors.allDeleted(f)) {
                    gone.add(f);
                }
            }
        }
        if (gone.isEmpty()) {
            return;
        }
        levels.replace(gone, List.of());
        for (DataFile f : gone) {
            if (unpublished.contains(f.fileName())) {
                after.remove(f);
                vectors.forget(f.fileName());
                deleteUnpublished(List.of(f));
            } else {
                before.add(f);
            }
        }
    }

    /** Stops a running compaction and deletes what it wrote. */
    void cancel() {
        if (running != null) {
            running.cancel(true);
            try {
                deleteUnpublished(running.get().all());
            } catch (CancellationException | ExecutionException | InterruptedException ignored) {
                // A cancelled or failed task deletes its own files.
            }
            running = null;
            runningTask = null;
        }
    }

    /** Deletes the outputs not yet handed out and forgets what they replaced. */
    void discardUnpublished() {
        deleteUnpublished(after);
        deleteUnpublished(changelog);
        after.clear();
        before.clear();
        changelog.clear();
    }

    /** Inputs of the compactions finished since the last {@link #handedOut}, already published. */
    List<DataFile> before() {
        return List.copyOf(before);
    }

    /** Outputs of the compactions finished since the last {@link #handedOut}, not yet published. */
    List<DataFile> after() {
        return List.copyOf(after);
    }

    /**
     * Changelog files of the full compactions finished since the last {@link #handedOut}, oldest
     * first; they are published with those compactions, or not at all.
     */
    List<DataFile> changelog() {
        return List.copyOf(changelog);
    }

    /** The writer handed {@link #before()}, {@link #after()} and the changelog out for a commit. */
    void handedOut() {
        before.clear();
        after.clear();
        changelog.clear();
    }

    /** Bytes of files the finished compactions wrote. */
    long bytesCompacted() {
        return bytesCompacted;
    }

    private boolean anyDeletions(List<SortedRun> runs) {
        return runs.stream().flatMap(r -> r.files().stream()).anyMatch(hasDeletions);
    }

    private boolean anyMissing(List<DataFile> files) throws IOException {
        for (DataFile f : files) {
            if (!target.io().exists(new Path(target.dir(), f.fileName()))) {
                return true;
            }
        }
        return false;
    }

    private void deleteUnpublished(List<DataFile> files) {
        DataFiles.deleteUnreferenced(target.io(), target.dir(), files);
    }
}
