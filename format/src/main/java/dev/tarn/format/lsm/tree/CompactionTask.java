package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.manifest.DataFile;
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
 */
final class CompactionTask implements Callable<List<DataFile>> {

    /** Merged changes between two checks for cancellation. */
    private static final int ROWS_PER_INTERRUPT_CHECK = 4096;

    private final List<SortedRun> runs;
    private final int outputLevel;
    private final boolean dropDeletes;
    private final KeyValueFileWriter.Target target;
    private final MergeFunction merge;
    private final SortedRunReader.FileOpener opener;

    /**
     * @param runs the runs to merge, newest first (as {@link Levels#runs()} lists them)
     * @param merge an instance used by this task only
     */
    CompactionTask(
            List<SortedRun> runs,
            CompactionUnit unit,
            KeyValueFileWriter.Target target,
            MergeFunction merge,
            SortedRunReader.FileOpener opener) {
        this.runs = List.copyOf(runs);
        this.outputLevel = unit.outputLevel();
        this.dropDeletes = unit.dropDeletes();
        this.target = target;
        this.merge = merge;
        this.opener = opener;
    }

    List<DataFile> inputs() {
        List<DataFile> files = new ArrayList<>();
        runs.forEach(r -> files.addAll(r.files()));
        return files;
    }

    int outputLevel() {
        return outputLevel;
    }

    @Override
    public List<DataFile> call() throws IOException {
        List<SortedRunReader> readers = new ArrayList<>(runs.size());
        for (int i = runs.size() - 1; i >= 0; i--) {
            readers.add(new SortedRunReader(runs.get(i).files(), opener, target.schema()));
        }
        KeyValueFileWriter writer = new KeyValueFileWriter(target, outputLevel);
        try {
            FileRunMerge merged =
                    new FileRunMerge(readers, target.schema().keys(), merge, dropDeletes);
            long rows = 0;
            while (merged.hasNext()) {
                writer.write(merged.next());
                if (++rows % ROWS_PER_INTERRUPT_CHECK == 0 && Thread.interrupted()) {
                    throw new InterruptedIOException("Compaction cancelled");
                }
            }
            return writer.finish();
        } catch (IOException | RuntimeException | Error e) {
            writer.abort();
            throw e;
        } finally {
            for (SortedRunReader reader : readers) {
                reader.close();
            }
        }
    }
}
