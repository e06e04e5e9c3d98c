package dev.tarn.format.read;

/**
 * What planning one scan read and decided, for those that report it (the connector's scan metrics,
 * in Apache Paimon's names): counted where the planner reads manifests and prunes files, so it
 * costs no request of its own. Plain numbers: the format knows no metric system.
 *
 * @param durationMillis how long the planning took
 * @param manifests the manifest files it read entries from (cached ones included): a whole
 *     snapshot's base and delta manifests, or the delta (or changelog) manifests of the snapshot
 *     whose changes it planned
 * @param skippedFiles files the filter ruled out by bucket, partition or column statistics
 * @param resultedFiles files in the planned splits
 */
public record ScanStats(
        long durationMillis, long manifests, long skippedFiles, long resultedFiles) {

    /** A scan that planned nothing. */
    public static final ScanStats NONE = new ScanStats(0, 0, 0, 0);

    /** The stats of this scan and {@code other} together: of several snapshots planned at once. */
    public ScanStats plus(ScanStats other) {
        return new ScanStats(
                durationMillis + other.durationMillis,
                manifests + other.manifests,
                skippedFiles + other.skippedFiles,
                resultedFiles + other.resultedFiles);
    }
}
