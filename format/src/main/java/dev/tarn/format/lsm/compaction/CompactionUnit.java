package dev.tarn.format.lsm.compaction;

/**
 * A compaction picked by {@link UniversalCompaction}: merge the {@code runCount} newest runs
 * (indexes 0 to runCount - 1 of the newest-first list it was given) into one run at {@code
 * outputLevel}. {@code dropDeletes} is true when the unit includes the oldest run, so nothing lies
 * below the output and tombstones can go.
 */
public record CompactionUnit(int runCount, int outputLevel, boolean dropDeletes) {

    public CompactionUnit {
        if (runCount < 1 || outputLevel < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Compaction unit needs at least one run and an output level of at"
                                    + " least 0, got %d runs to level %d",
                            runCount, outputLevel));
        }
    }
}
