package dev.tarn.format.write;

/**
 * What a {@link TableWrite}'s buckets look like at its last commit (a checkpoint barrier), for
 * those that report it (the connector's metrics): taken once per {@link TableWrite#prepareCommit},
 * so reading it costs the writer nothing. All zeros for an append table, which has no write buffer,
 * levels or lookup index.
 *
 * @param level0 over the buckets the write has open
 */
public record WriteStats(Buffer buffer, Level0 level0, Compaction compaction, Lookup lookup) {

    /**
     * The write buffer the buckets share ({@code write-buffer-size}).
     *
     * @param usedBytes what it held when the commit began, before the commit's flush
     * @param flushes how many times a bucket flushed it into level-0 files, so far
     * @param spills how many times a bucket spilled it to local disk to free memory, so far
     */
    public record Buffer(long usedBytes, long limitBytes, long flushes, long spills) {}

    /** The level-0 files of the buckets after the commit: the most in one, and the average. */
    public record Level0(long maxFiles, double avgFiles) {}

    /**
     * @param running how many buckets had a compaction running after the commit
     * @param lastMillis the longest of the buckets' last finished compactions, in milliseconds
     */
    public record Compaction(int running, long lastMillis) {}

    /** The lookup indexes the buckets keep: how many hold memory, and how much. */
    public record Lookup(int buckets, long memoryBytes) {}

    /** Before the first commit, and always for an append table. */
    public static final WriteStats NONE =
            new WriteStats(
                    new Buffer(0, 0, 0, 0),
                    new Level0(0, 0),
                    new Compaction(0, 0),
                    new Lookup(0, 0));
}
