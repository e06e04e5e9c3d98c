package dev.tarn.format.read;

import dev.tarn.format.Table;
import dev.tarn.format.bucket.BucketPruning;
import dev.tarn.format.bucket.PartitionPruning;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.LiveFiles;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.PredicateEvaluator;
import dev.tarn.format.predicate.Predicates;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The read seam's planner: fixes one snapshot (the latest, or the one {@code scan.snapshot-id} or
 * {@code scan.timestamp-millis} selects) and turns its live files into {@link Split}s, skipping
 * partitions, buckets and files the filter rules out (in a primary-key table, by its key columns
 * only; each bucket is one split there, as its files are merged on read). The snapshot is fixed
 * when {@link #plan} runs, so later commits never change what a plan reads.
 */
public final class TableScan {

    /** A snapshot's splits; {@code snapshot} is null for a table without snapshots. */
    public record Plan(@Nullable Snapshot snapshot, List<Split> splits) {}

    private final Table table;
    @Nullable private Predicate filter;

    public TableScan(Table table) {
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
        Snapshot snapshot = resolveSnapshot();
        if (snapshot == null) {
            return new Plan(null, List.of());
        }
        return new Plan(snapshot, splits(snapshot));
    }

    /**
     * The snapshot this scan reads, or null for a table without snapshots.
     *
     * @throws IllegalArgumentException naming the table and the value if the requested snapshot or
     *     time is outside the table's history
     */
    @Nullable
    public Snapshot resolveSnapshot() {
        SnapshotManager snapshots = table.snapshotManager();
        TableConfig config = table.config();
        if (config.scanSnapshotId() != null) {
            long id = config.scanSnapshotId();
            OptionalLong earliest = snapshots.earliestId();
            OptionalLong latest = snapshots.latestId();
            if (earliest.isEmpty()
                    || id < earliest.getAsLong()
                    || id > latest.getAsLong()
                    || !snapshots.exists(id)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid 'scan.snapshot-id' for table %s: snapshot %d does not"
                                        + " exist; the table has %s",
                                table.name(),
                                id,
                                earliest.isEmpty()
                                        ? "no snapshot yet"
                                        : "snapshots "
                                                + earliest.getAsLong()
                                                + " to "
                                                + latest.getAsLong()));
            }
            return snapshots.snapshot(id);
        }
        if (config.scanTimestampMillis() != null) {
            return snapshots.atOrBefore(config.scanTimestampMillis());
        }
        OptionalLong latest = snapshots.latestId();
        return latest.isPresent() ? snapshots.snapshot(latest.getAsLong()) : null;
    }

    private List<Split> splits(Snapshot snapshot) {
        boolean primaryKey = !table.schema().primaryKeys().isEmpty();
        // A primary-key file holds versions of keys: only key columns may rule a file out.
        Predicate filter =
                primaryKey
                        ? Predicates.onlyFields(
                                this.filter,
                                table.schema().fieldIndexes(table.schema().primaryKeys()))
                        : this.filter;
        PartitionPruning partitions =
                new PartitionPruning(table.schema().fieldIndexes(table.schema().partitionKeys()));
        Map<ManifestEntry.FileId, ManifestEntry> live =
                LiveFiles.of(table.manifestList(), table.manifestFile(), snapshot);
        Set<Integer> buckets =
                BucketPruning.buckets(filter, table.schema(), table.config().bucket());
        Map<Partition, Boolean> partitionMatches = new LinkedHashMap<>();
        Map<List<Object>, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : live.values()) {
            if (buckets != null
                    && e.totalBuckets() == table.config().bucket()
                    && !buckets.contains(e.bucket())) {
                continue;
            }
            if (filter != null) {
                boolean partitionOk =
                        partitionMatches.computeIfAbsent(
                                e.partition(), p -> partitions.mayMatch(filter, p));
                if (!partitionOk || !PredicateEvaluator.mayMatchFile(filter, e.file())) {
                    continue;
                }
            }
            byBucket.computeIfAbsent(List.of(e.partition(), e.bucket()), k -> new ArrayList<>())
                    .add(e);
        }
        long target = table.config().sizes().splitTargetSize();
        List<Split> splits = new ArrayList<>();
        for (List<ManifestEntry> entries : byBucket.values()) {
            ManifestEntry first = entries.get(0);
            if (primaryKey) {
                // A bucket's files are merged together: one split each.
                splits.add(
                        split(snapshot, first, entries.stream().map(ManifestEntry::file).toList()));
                continue;
            }
            List<DataFile> pack = new ArrayList<>();
            long packSize = 0;
            for (ManifestEntry e : entries) {
                if (!pack.isEmpty() && packSize + e.file().fileSize() > target) {
                    splits.add(split(snapshot, first, pack));
                    pack = new ArrayList<>();
                    packSize = 0;
                }
                pack.add(e.file());
                packSize += e.file().fileSize();
            }
            splits.add(split(snapshot, first, pack));
        }
        return splits;
    }

    private static Split split(Snapshot snapshot, ManifestEntry first, List<DataFile> files) {
        return new Split(
                snapshot.id(), first.partition(), first.bucket(), first.totalBuckets(), files);
    }
}
