package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.run.SortedRun;
import dev.tarn.format.manifest.DataFile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The files of one bucket's LSM tree by level: level 0 ordered newest first (by sequence), each
 * higher level ordered by key. Always: files of one level above 0 never overlap in key range, and
 * every file has a key range. Not thread-safe: the bucket's writer owns it.
 */
final class Levels {

    private final KeyValueSchema schema;
    private final int maxLevel;
    private final TreeSet<DataFile> level0 =
            new TreeSet<>(
                    Comparator.comparingLong((DataFile f) -> f.sequence().max())
                            .thenComparingLong(f -> f.sequence().min())
                            .thenComparing(DataFile::fileName)
                            .reversed());
    private final List<List<DataFile>> levels = new ArrayList<>();

    Levels(KeyValueSchema schema, int maxLevel, Collection<DataFile> files) {
        this.schema = schema;
        this.maxLevel = maxLevel;
        for (int i = 0; i < maxLevel; i++) {
            levels.add(new ArrayList<>());
        }
        files.forEach(this::add);
    }

    void addLevel0(DataFile file) {
        add(file);
    }

    /** Adds a file at its own level. */
    void addFile(DataFile file) {
        add(file);
    }

    /** Replaces every file with {@code files}, each at its own level. */
    void resetTo(Collection<DataFile> files) {
        level0.clear();
        levels.forEach(List::clear);
        files.forEach(this::add);
    }

    /** Swaps a compaction's inputs for its outputs. */
    void replace(Collection<DataFile> before, Collection<DataFile> after) {
        Set<String> names = new HashSet<>();
        before.forEach(f -> names.add(f.fileName()));
        level0.removeIf(f -> names.contains(f.fileName()));
        levels.forEach(level -> level.removeIf(f -> names.contains(f.fileName())));
        after.forEach(this::add);
    }

    /** The sorted runs, newest first: level-0 files, then levels 1..max that hold files. */
    List<SortedRun> runs() {
        List<SortedRun> runs = new ArrayList<>();
        for (DataFile f : level0) {
            runs.add(new SortedRun(0, List.of(f)));
        }
        for (int i = 0; i < levels.size(); i++) {
            if (!levels.get(i).isEmpty()) {
                runs.add(new SortedRun(i + 1, levels.get(i)));
            }
        }
        return runs;
    }

    int level0Count() {
        return level0.size();
    }

    int runCount() {
        int count = level0.size();
        for (List<DataFile> level : levels) {
            count += level.isEmpty() ? 0 : 1;
        }
        return count;
    }

    boolean isEmpty() {
        return runCount() == 0;
    }

    /** The highest sequence number of any file, or -1 if there is none. */
    long maxSequence() {
        long max = -1;
        for (SortedRun run : runs()) {
            for (DataFile f : run.files()) {
                max = Math.max(max, f.sequence().max());
            }
        }
        return max;
    }

    private void add(DataFile file) {
        if (file.keyRange() == null) {
            throw new IllegalArgumentException(
                    "File " + file.fileName() + " has no key range; it is not a primary-key file");
        }
        if (file.level() > maxLevel) {
            throw new IllegalArgumentException(
                    String.format(
                            "File %s is at level %d, above the table's last level %d (num-levels"
                                    + " may not shrink)",
                            file.fileName(), file.level(), maxLevel));
        }
        if (file.level() == 0) {
            level0.add(file);
            return;
        }
        List<DataFile> level = levels.get(file.level() - 1);
        int at = 0;
        while (at < level.size()
                && schema.compareKeys(level.get(at).keyRange().min(), file.keyRange().min()) < 0) {
            at++;
        }
        level.add(at, file);
    }
}
