package dev.tarn.format.lsm.compaction;

import dev.tarn.format.lsm.run.SortedRun;

/**
 * What compaction picking needs to know of a sorted run: its level (0 for a single level-0 file,
 * otherwise the level the run fills) and its total size in bytes.
 */
public record SortedRunInfo(int level, long sizeBytes) {

    public SortedRunInfo {
        if (level < 0 || sizeBytes < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Sorted run needs a level and a size of at least 0, got level %d and"
                                    + " %d bytes",
                            level, sizeBytes));
        }
    }

    public static SortedRunInfo of(SortedRun run) {
        return new SortedRunInfo(run.level(), run.sizeBytes());
    }
}
