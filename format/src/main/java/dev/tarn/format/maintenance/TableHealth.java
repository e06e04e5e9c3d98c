package dev.tarn.format.maintenance;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Consumers.Consumer;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A table's state at a glance, for an operator (the catalog's {@code t$health}): the snapshots it
 * keeps, the level-0 backlog of its buckets, its small files, how far its consumers lag, and what
 * the integrity check ({@link TableCheck}, without reading data file footers: it reads every
 * retained snapshot's manifests and lists each bucket directory once) finds: the newest whole
 * snapshot, and from the ledger each commit user's pending commits and their missing prepared files
 * ({@link PendingCheck}). Reads the table as it is; writes nothing.
 */
public final class TableHealth {

    /** The snapshots the table keeps: how many, the oldest and the newest (null without any). */
    public record Snapshots(int retained, @Nullable Snapshot earliest, @Nullable Snapshot latest) {}

    /**
     * The level-0 files (flushed, not yet compacted) of the latest snapshot's buckets: the most in
     * one bucket and the average over the buckets with live files. Only primary-key tables have
     * levels; an append table's files are all of level 0 and have no backlog.
     */
    public record Level0(long maxFiles, double avgFiles) {}

    /**
     * The live data files of the latest snapshot.
     *
     * @param buckets the buckets (of every partition) that hold one
     * @param small those smaller than {@code smallBelowBytes}
     * @param smallBelowBytes half the table's {@code target-file-size}
     */
    public record Files(long count, long buckets, long small, long smallBelowBytes) {}

    /**
     * The table's consumers and the one furthest behind.
     *
     * @param maxLag how many snapshots the furthest consumer has yet to read up to the latest (0:
     *     it waits for the next one); 0 without consumers
     * @param furthest the id of that consumer; null without consumers
     */
    public record ConsumerLag(int count, long maxLag, @Nullable String furthest) {}

    /**
     * @param level0 null for an append table
     * @param integrity the integrity check's answer: its problems, the newest whole snapshot and
     *     the pending commits of each commit user
     */
    public record Report(
            String table,
            Snapshots snapshots,
            @Nullable Level0 level0,
            Files files,
            ConsumerLag consumers,
            TableCheck.Result integrity) {}

    private TableHealth() {}

    /** The health of {@code table} now. */
    public static Report of(TableContext table) {
        Snapshots snapshots = snapshots(table.snapshotManager());
        Map<BucketId, Long> level0 = new HashMap<>();
        long count = 0;
        long small = 0;
        long smallBelow = table.config().sizes().targetFileSize() / 2;
        if (snapshots.latest() != null) {
            for (ManifestEntry e : table.snapshotReader().liveFiles(snapshots.latest()).values()) {
                count++;
                if (e.file().fileSize() < smallBelow) {
                    small++;
                }
                level0.merge(e.bucketId(), e.file().level() == 0 ? 1L : 0L, Long::sum);
            }
        }
        return new Report(
                table.name(),
                snapshots,
                table.kind().takesChanges() ? level0(level0) : null,
                new Files(count, level0.size(), small, smallBelow),
                consumers(table, snapshots.latest()),
                TableCheck.run(table, false));
    }

    private static Snapshots snapshots(SnapshotManager manager) {
        var earliest = manager.earliestId();
        var latest = manager.latestId();
        if (earliest.isEmpty() || latest.isEmpty()) {
            return new Snapshots(0, null, null);
        }
        int retained = 0;
        for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
            if (manager.exists(id)) {
                retained++;
            }
        }
        return new Snapshots(
                retained,
                manager.snapshot(earliest.getAsLong()),
                manager.snapshot(latest.getAsLong()));
    }

    private static Level0 level0(Map<BucketId, Long> byBucket) {
        long max = 0;
        long sum = 0;
        for (long files : byBucket.values()) {
            max = Math.max(max, files);
            sum += files;
        }
        return new Level0(max, byBucket.isEmpty() ? 0 : (double) sum / byBucket.size());
    }

    private static ConsumerLag consumers(TableContext table, @Nullable Snapshot latest) {
        List<Consumer> all;
        try {
            all = new Consumers(table.io(), table.paths(), table.name()).all();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list consumers of table " + table.name(), e);
        }
        long next = latest == null ? 1 : latest.id() + 1;
        long maxLag = 0;
        String furthest = null;
        for (Consumer c : all) {
            long lag = Math.max(0, next - c.nextSnapshotId());
            if (furthest == null || lag > maxLag) {
                maxLag = lag;
                furthest = c.id();
            }
        }
        return new ConsumerLag(all.size(), maxLag, furthest);
    }
}
