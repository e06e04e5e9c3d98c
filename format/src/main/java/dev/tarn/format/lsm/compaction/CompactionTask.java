package dev.tarn.format.lsm.compaction;

import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.FileRunMerge;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.run.SortedRun;
import dev.tarn.format.lsm.run.SortedRunReader;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * One compaction of a bucket: merges the given sorted runs into one new run at the output level,
 * dropping tombstones if nothing lies below it. Runs on a background thread; it only reads its
 * input files and writes new ones, so the bucket's writer goes on writing meanwhile. If it fails or
 * is cancelled (interrupted), it deletes what it wrote.
 *
 * <p>With a changelog ({@code changelog-producer} = {@code full-compaction}), a compaction of every
 * run, to the last level, also writes the changes of the rows since the last level's previous
 * contents ({@link FullCompactionChangelog}).
 */
public final class CompactionTask implements Callable<CompactionTask.Result> {

    /**
     * What a compaction wrote.
     *
     * @param files the new run, in key order
     * @param changelog the changelog files of a full compaction with a changelog, else empty
     */
    public record Result(List<DataFile> files, List<DataFile> changelog) {

        public Result {
            files = List.copyOf(files);
            changelog = List.copyOf(changelog);
        }

        public List<DataFile> all() {
            List<DataFile> all = new ArrayList<>(files);
            all.addAll(changelog);
            return all;
        }
    }

    /** Merged changes between two checks for cancellation. */
    private static final int ROWS_PER_INTERRUPT_CHECK = 4096;

    private final List<SortedRun> runs;
    private final int outputLevel;
    private final boolean dropDeletes;
    private final KeyValueFileWriter.Target target;
    private final MergeFunction merge;
    private final SortedRunReader.FileOpener opener;
    private final boolean changelog;

    /**
     * @param runs the runs to merge, newest first (as the writer's levels list them)
     * @param merge an instance used by this task only
     * @param changelog whether a compaction of every run writes the changelog of its rows
     */
    public CompactionTask(
            List<SortedRun> runs,
            CompactionUnit unit,
            KeyValueFileWriter.Target target,
            MergeFunction merge,
            SortedRunReader.FileOpener opener,
            boolean changelog) {
        this.runs = List.copyOf(runs);
        this.outputLevel = unit.outputLevel();
        this.dropDeletes = unit.dropDeletes();
        this.target = target;
        this.merge = merge;
        this.opener = opener;
        // Only a compaction of every run to the last level knows each key's row.
        this.changelog = changelog && unit.dropDeletes();
    }

    public List<DataFile> inputs() {
        List<DataFile> files = new ArrayList<>();
        runs.forEach(r -> files.addAll(r.files()));
        return files;
    }

    int outputLevel() {
        return outputLevel;
    }

    @Override
    public Result call() throws IOException {
        List<SortedRunReader> readers = new ArrayList<>(runs.size());
        for (int i = runs.size() - 1; i >= 0; i--) {
            readers.add(new SortedRunReader(runs.get(i).files(), opener, target.schema()));
        }
        KeyValueFileWriter writer = new KeyValueFileWriter(target, outputLevel);
        FullCompactionChangelog changes = changelog ? new FullCompactionChangelog(target) : null;
        // The oldest run is the last level's previous contents only if it is at the last level.
        boolean lastLevelBefore =
                !runs.isEmpty() && runs.get(runs.size() - 1).level() == outputLevel;
        FileRunMerge.Diff diff =
                changes == null
                        ? null
                        : lastLevelBefore ? changes : (oldest, merged) -> changes.key(null, merged);
        try {
            FileRunMerge merged =
                    new FileRunMerge(readers, target.schema().keys(), merge, dropDeletes, diff);
            long rows = 0;
            while (merged.hasNext()) {
                writer.write(merged.next());
                if (++rows % ROWS_PER_INTERRUPT_CHECK == 0 && Thread.interrupted()) {
                    throw new InterruptedIOException("Compaction cancelled");
                }
            }
            List<DataFile> files = writer.finish();
            try {
                return new Result(files, changes == null ? List.of() : changes.finish());
            } catch (IOException | RuntimeException | Error e) {
                DataFiles.deleteUnreferenced(target.io(), target.dir(), files);
                throw e;
            }
        } catch (IOException | RuntimeException | Error e) {
            writer.abort();
            if (changes != null) {
                changes.abort();
            }
            throw e;
        } finally {
            for (SortedRunReader reader : readers) {
                reader.close();
            }
        }
    }
}
