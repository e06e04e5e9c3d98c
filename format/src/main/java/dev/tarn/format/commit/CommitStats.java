package dev.tarn.format.commit;

/**
 * What one {@link TableCommit#commit} call did, for those that report it (the connector's metrics):
 * counted from the manifest entries of the snapshots the call created, so a call that found its
 * commit published already, or a dropped compaction, adds nothing. Plain numbers: the format knows
 * no metric system.
 *
 * @param durationMillis how long the call took until its last snapshot was published (or it found
 *     nothing to publish), without the hooks that follow
 * @param attempts how many times the call staged a snapshot: one per snapshot it published, plus
 *     one per race for a snapshot id it lost
 * @param partitionsWritten the distinct partitions the new snapshots' entries touch
 * @param bucketsWritten the distinct buckets (of any partition) the new snapshots' entries touch
 */
public record CommitStats(
        long durationMillis,
        int attempts,
        Files files,
        Records records,
        int partitionsWritten,
        int bucketsWritten) {

    /**
     * Files of the table (data files, not changelog files) the call added and deleted.
     *
     * @param added added by every snapshot of the call (appends, overwrites and compactions)
     * @param deleted deleted by compactions and overwrites
     * @param appended added by its APPEND or OVERWRITE snapshot: new rows, not rewritten ones
     */
    public record Files(long added, long deleted, long appended) {}

    /**
     * Rows the call's APPEND or OVERWRITE snapshot added.
     *
     * @param deltaAppended rows in the data files it appended
     * @param changelogAppended rows in the changelog files it added
     */
    public record Records(long deltaAppended, long changelogAppended) {}

    /**
     * A call that published nothing and took no time: a result's stats until the call sets them.
     */
    public static final CommitStats NONE =
            new CommitStats(0, 0, new Files(0, 0, 0), new Records(0, 0), 0, 0);
}
