package dev.tarn.format.read;

import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import java.util.List;
import java.util.OptionalLong;
import javax.annotation.Nullable;

/**
 * The read seam's planner: fixes one snapshot (the latest, or the one {@code scan.snapshot-id},
 * {@code scan.timestamp-millis} or the tag of {@code scan.tag-name} selects) and turns its live
 * files into {@link Split}s, each with its files' deletion vectors, skipping partitions, buckets
 * and files the filter rules out. In a primary-key table, a bucket whose files are all kept by
 * deletion vectors is planned as an append table's (files packed into splits, pruned by any
 * column); any other bucket is one split, merged on read and pruned by its key columns only. The
 * snapshot is fixed when {@link #plan} runs, so later commits never change what a plan reads.
 */
public final class TableScan {

    /**
     * A snapshot's splits; {@code snapshot} is null for a table without snapshots.
     *
     * @param stats what planning them read and skipped
     */
    public record Plan(@Nullable Snapshot snapshot, List<Split> splits, ScanStats stats) {}

    private final TableContext table;
    @Nullable private Predicate filter;

    public TableScan(TableContext table) {
        this.table = table;
    }

    public TableScan withFilter(@Nullable Predicate filter) {
        this.filter = filter;
        return this;
    }

    /**
     * @throws IllegalArgumentException naming the table and the value if the requested snapshot or
     *     time is outside the table's history
     */
    public Plan plan() {
        ScanTally tally = new ScanTally();
        Snapshot snapshot = resolveSnapshot();
        if (snapshot == null) {
            return new Plan(null, List.of(), tally.stats());
        }
        return plan(snapshot, tally);
    }

    /**
     * The splits of {@code snapshot}, whatever the scan options select: for a reader that follows
     * the table by snapshot ids of its own (a lookup join reading buckets anew).
     */
    public Plan plan(Snapshot snapshot) {
        return plan(snapshot, new ScanTally());
    }

    private Plan plan(Snapshot snapshot, ScanTally tally) {
        SnapshotReader reader = table.snapshotReader();
        List<ManifestFileMeta> manifests = reader.manifests(snapshot);
        tally.manifests(manifests.size());
        List<Split> splits =
                new BucketSplits(table, filter)
                        .current(
                                snapshot,
                                reader.filesByBucket(manifests),
                                reader.vectors(snapshot),
                                true,
                                tally);
        return new Plan(snapshot, splits, tally.stats());
    }

    /**
     * The snapshot this scan reads, or null for a table without snapshots: whatever {@code
     * scan.mode} says, a batch read reads one snapshot whole, the one its position selects or the
     * latest.
     *
     * @throws IllegalArgumentException naming the options and values if they conflict or the mode
     *     lacks the position it needs ({@link StartOptions#resolve}, as for a streaming read), or
     *     if the requested snapshot or time is outside the table's history
     */
    @Nullable
    public Snapshot resolveSnapshot() {
        SnapshotManager snapshots = table.snapshotManager();
        TableConfig config = table.config();
        StartOptions.resolve(table.name(), config);
        if (config.lifecycle().scanTagName() != null) {
            return StartOptions.tagged(table, config.lifecycle().scanTagName());
        }
        if (config.scanSnapshotId() != null) {
            return StartOptions.existing(table, config.scanSnapshotId());
        }
        if (config.scanTimestampMillis() != null) {
            return snapshots.atOrBefore(config.scanTimestampMillis());
        }
        OptionalLong latest = snapshots.latestId();
        return latest.isPresent() ? snapshots.snapshot(latest.getAsLong()) : null;
    }
}
