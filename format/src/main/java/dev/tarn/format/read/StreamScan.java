package dev.tarn.format.read;

import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.StreamConfig;
import dev.tarn.format.schema.StreamConfig.ScanMode;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * The planner of a read that follows the table: where it starts ({@link #start}, by {@code
 * scan.mode} or a consumer's record), then the changes of one snapshot after another ({@link
 * #changes}), each turned into {@link Split}s from the snapshot's delta alone. An append table's
 * changes are the files APPEND snapshots add; a primary-key table's are its new versions per key
 * (producer {@code none}) or the changelog files its writers stored ({@code input}, {@code lookup},
 * {@code full-compaction}, whose changelog the COMPACT snapshots of full compactions store and
 * whose full phase reads the last level alone). COMPACT snapshots change no row and bring nothing
 * but the changelog files they store; OVERWRITE snapshots are skipped unless {@code
 * streaming-read-overwrite} is set. Stateless between calls: the caller keeps the position, so a
 * restored reader continues at the snapshot it checkpointed. Every start mode and every kind of
 * snapshot is decided here, in one place (hence the size), so that a streaming read and its
 * recovery plan the same splits from the same snapshot.
 */
public final class StreamScan {

    /**
     * Where a read starts: the splits of a whole snapshot (maybe none), the changes of snapshots
     * planned already (those of {@code incremental-between}), then the changes of each snapshot
     * from {@code nextSnapshotId} on.
     *
     * @param stats what planning the splits and changes read and skipped
     */
    public record Start(
            @Nullable Snapshot fullSnapshot,
            List<Split> splits,
            List<Changes> changes,
            long nextSnapshotId,
            ScanStats stats) {

        /** A start with nothing planned: the changes from {@code nextSnapshotId} on. */
        static Start at(long nextSnapshotId) {
            return new Start(null, List.of(), List.of(), nextSnapshotId, ScanStats.NONE);
        }
    }

    /**
     * The splits of one snapshot's changes (none for a snapshot that changed no row).
     *
     * @param stats what planning them read and skipped
     */
    public record Changes(Snapshot snapshot, List<Split> splits, ScanStats stats) {}

    private final TableContext table;
    private final BucketSplits splits;
    private final SnapshotManager snapshots;
    private final SnapshotReader reader;

    /**
     * @throws IllegalArgumentException naming the table, the option and the value if the table
     *     cannot be followed as configured
     */
    public StreamScan(TableContext table, @Nullable Predicate filter) {
        this.table = table;
        this.splits = new BucketSplits(table, filter);
        this.snapshots = table.snapshotManager();
        this.reader = table.snapshotReader();
        checkFollowable(table);
    }

    private static void checkFollowable(TableContext table) {
        StreamConfig stream = table.config().stream();
        if (table.kind() == TableKind.APPEND) {
            // Its new files are its changes (a producer is refused at CREATE and ALTER TABLE).
            return;
        }
        if (!stream.changelogProducer().computesRowChanges()
                && !table.config().lsm().mergeEngine().newestVersionIsRow()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot follow table %s in a streaming read: its merge-engine '%s'"
                                    + " folds the versions of a key, so neither its new versions"
                                    + " nor its input (changelog-producer '%s') are the changes"
                                    + " of its rows. Set 'changelog-producer' = 'lookup' or"
                                    + " 'full-compaction' (ALTER TABLE), whose writers compute"
                                    + " them, and follow the commits made after it",
                            table.name(),
                            table.config().lsm().mergeEngine(),
                            stream.changelogProducer()));
        }
    }

    /**
     * Plans the start: the consumer's recorded position if {@code consumer-id} has one, else by
     * {@code scan.mode}.
     *
     * @throws IllegalArgumentException naming the options and values if they are missing,
     *     conflicting, or outside the table's history
     */
    public Start start() {
        Start position = position();
        return position.fullSnapshot() == null ? position : full(position.fullSnapshot());
    }

    /**
     * Checks the start options against the table, as {@link #start} would, without planning the
     * files of a full phase: for the planner, which fails a statement with bad options.
     *
     * @throws IllegalArgumentException as {@link #start}
     */
    public void checkStart() {
        position();
    }

    /**
     * Whether the read, started now, sees the whole table: a full phase, or every change from the
     * first snapshot on (not {@code latest}, whose start moves with each commit until the job
     * starts). Then the consumers of its changes know every key's current row, and a read may
     * complete its upserts into a changelog ({@link TableRead#completesChangelog}).
     *
     * @throws IllegalArgumentException as {@link #start}
     */
    public boolean seesWholeTable() {
        Start position = position();
        return position.fullSnapshot() != null
                || (position.nextSnapshotId() == 1
                        && StartOptions.resolve(table.name(), table.config()) != ScanMode.LATEST);
    }

    /**
     * Whether a read of this scan's splits returns a complete changelog when asked to ({@link
     * TableRead#completesChangelog}): it {@linkplain #seesWholeTable sees the whole table} and the
     * table completes one.
     *
     * @throws IllegalArgumentException as {@link #start}
     */
    public boolean completesChangelog() {
        return TableRead.completesChangelog(table, seesWholeTable());
    }

    /** Where the read starts; a full phase's snapshot is named, its splits not planned. */
    private Start position() {
        TableConfig config = table.config();
        String consumerId = config.stream().consumerId();
        if (consumerId != null) {
            Optional<Consumers.Consumer> consumer =
                    new Consumers(table.io(), table.paths(), table.name()).get(consumerId);
            if (consumer.isPresent()) {
                return Start.at(consumer.get().nextSnapshotId());
            }
        }
        ScanMode mode = StartOptions.resolve(table.name(), config);
        String tag = config.lifecycle().scanTagName();
        if (tag != null) {
            // The tag holds its snapshot, which may have expired as a snapshot file.
            Snapshot tagged = StartOptions.tagged(table, tag);
            return mode == ScanMode.FROM_SNAPSHOT_FULL ? fullOf(tagged) : Start.at(tagged.id());
        }
        OptionalLong latest = snapshots.latestId();
        switch (mode) {
            case LATEST_FULL -> {
                if (latest.isEmpty()) {
                    return Start.at(1);
                }
                return fullOf(snapshots.snapshot(latest.getAsLong()));
            }
            case LATEST -> {
                return Start.at(latest.isEmpty() ? 1 : latest.getAsLong() + 1);
            }
            case FROM_SNAPSHOT -> {
                return Start.at(StartOptions.checkedId(table, config));
            }
            case FROM_SNAPSHOT_FULL -> {
                return fullOf(snapshots.snapshot(StartOptions.checkedId(table, config)));
            }
            case FROM_TIMESTAMP -> {
                return Start.at(StartOptions.afterTimestamp(table, config));
            }
            default ->
                    throw new IllegalStateException(
                            "A read of table "
                                    + table.name()
                                    + " with 'incremental-between' reads its changes with"
                                    + " between(), it does not follow the table");
        }
    }

    private static Start fullOf(Snapshot snapshot) {
        return new Start(snapshot, List.of(), List.of(), snapshot.id() + 1, ScanStats.NONE);
    }

    /**
     * The full phase: the snapshot's current rows, planned as a batch read plans them, but for two
     * reads that merge every bucket. A read that completes a changelog keeps each bucket's rows in
     * key order ({@link ChangelogCompletion}). With {@code full-compaction}, the last level is read
     * as each bucket's last full compaction left it, without the vectors later flushes marked in
     * it: the rows the changelog of the next full compaction goes on from.
     */
    private Start full(Snapshot snapshot) {
        ScanTally tally = new ScanTally();
        List<ManifestFileMeta> manifests = reader.manifests(snapshot);
        tally.manifests(manifests.size());
        Map<BucketId, List<ManifestEntry>> files = reader.filesByBucket(manifests);
        boolean lastLevelOnly =
                table.kind() == TableKind.PRIMARY_KEY
                        && table.config().stream().changelogProducer().changesFromLastLevel();
        if (lastLevelOnly) {
            files = lastLevel(files);
        }
        Map<ManifestEntry.FileId, DeletionFile> vectors =
                lastLevelOnly ? Map.of() : reader.vectors(snapshot);
        boolean byFile = !lastLevelOnly && !ChangelogCompletion.applies(table, true);
        List<Split> planned = splits.current(snapshot, files, vectors, byFile, tally);
        return new Start(snapshot, planned, List.of(), snapshot.id() + 1, tally.stats());
    }

    /**
     * The files at the last level: with {@code full-compaction}, the rows as of each bucket's last
     * full compaction, from which the changelog of its next one goes on. Rows in lower levels are
     * not in any changelog yet; the next full compaction's brings them.
     */
    private Map<BucketId, List<ManifestEntry>> lastLevel(Map<BucketId, List<ManifestEntry>> files) {
        int last = BucketTrees.lastLevel(table.options());
        Map<BucketId, List<ManifestEntry>> kept = new LinkedHashMap<>();
        files.forEach(
                (bucket, entries) -> {
                    List<ManifestEntry> top =
                            entries.stream().filter(e -> e.file().level() == last).toList();
                    if (!top.isEmpty()) {
                        kept.put(bucket, top);
                    }
                });
        return kept;
    }

    /** The newest snapshot's id as the table's hint says (one request), if there is one. */
    public OptionalLong latestSnapshotId() {
        return snapshots.latestId();
    }

    /**
     * The changes of snapshot {@code id}, or empty while it is not published yet. One request to
     * the file system when it is not.
     */
    public Optional<Changes> changes(long id) {
        if (!snapshots.exists(id)) {
            return Optional.empty();
        }
        return Optional.of(changesOf(snapshots.snapshot(id)));
    }

    private Changes changesOf(Snapshot snapshot) {
        ScanTally tally = new ScanTally();
        List<Split> planned = splitsOf(snapshot, tally);
        return new Changes(snapshot, planned, tally.stats());
    }

    /**
     * Fails if snapshot {@code id}, which the read needs next, is gone while newer ones exist: it
     * expired before the read got to it, and reading on would skip its changes. Fails too if the
     * table itself is gone (dropped, or renamed: its files moved), which would otherwise look like
     * a table without commits for ever. One request more than the expiry check: the read schema's
     * file, which only a drop or a rename removes.
     *
     * @throws IllegalStateException naming the snapshot, the table and the options to change
     */
    public void checkNotExpired(long id) {
        Path schemaFile = table.schemaManager().path(table.schema().id());
        try {
            if (!table.io().exists(schemaFile)) {
                throw new IllegalStateException(
                        String.format(
                                "Table %s is gone from %s while this streaming read followed it:"
                                        + " it was dropped or renamed (its schema file %s is"
                                        + " missing). Restart the read on the table's current"
                                        + " name",
                                table.name(), table.location(), schemaFile.getName()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot check that table " + table.name() + " still exists: " + e.getMessage(),
                    e);
        }
        OptionalLong latest = snapshots.latestId();
        if (latest.isPresent() && latest.getAsLong() >= id && !snapshots.exists(id)) {
            OptionalLong earliest = snapshots.earliestId();
            throw new IllegalStateException(
                    String.format(
                            "Snapshot %d of table %s, the next one this streaming read needs, has"
                                    + " expired (the table keeps snapshots %s to %d); its changes"
                                    + " are lost to this read. Keep snapshots longer"
                                    + " ('snapshot.num-retained.min', 'snapshot.time-retained'),"
                                    + " or read with a 'consumer-id', whose position expiration"
                                    + " keeps; then restart the read from a snapshot the table"
                                    + " has",
                            id,
                            table.name(),
                            earliest.isPresent() ? String.valueOf(earliest.getAsLong()) : "none",
                            latest.getAsLong()));
        }
    }

    /**
     * The start of a read of the changes of snapshots {@code after + 1} to {@code upTo} ({@code
     * incremental-between}): those changes, in snapshot order, planned; nothing after them.
     *
     * @throws IllegalArgumentException naming the option and value if a snapshot is missing
     */
    public Start between(StreamConfig.Between between) {
        checkBetween(between);
        List<Changes> all = new ArrayList<>();
        ScanStats stats = ScanStats.NONE;
        for (long id = between.after() + 1; id <= between.upTo(); id++) {
            Changes changes = changesOf(snapshots.snapshot(id));
            all.add(changes);
            stats = stats.plus(changes.stats());
        }
        return new Start(null, List.of(), all, between.upTo() + 1, stats);
    }

    /**
     * Checks that every snapshot of {@code incremental-between} is there, without planning.
     *
     * @throws IllegalArgumentException as {@link #between}
     */
    public void checkBetween(StreamConfig.Between between) {
        StartOptions.checkBetween(table, between);
    }

    private List<Split> splitsOf(Snapshot snapshot, ScanTally tally) {
        boolean storedChangelog =
                table.kind() == TableKind.PRIMARY_KEY
                        && table.config().stream().changelogProducer().writesChangelogFiles();
        switch (snapshot.commit().kind()) {
            case APPEND -> {
                if (storedChangelog) {
                    return changelog(snapshot, tally);
                }
                return splits.of(snapshot, delta(snapshot, tally).added(), Split.Kind.DELTA, tally);
            }
            case COMPACT -> {
                return storedChangelog ? changelog(snapshot, tally) : List.of();
            }
            case OVERWRITE -> {
                if (!table.config().stream().readOverwrite()) {
                    return List.of();
                }
                SnapshotReader.Delta delta = delta(snapshot, tally);
                List<Split> all =
                        new ArrayList<>(
                                splits.of(snapshot, delta.deleted(), Split.Kind.RETRACT, tally));
                all.addAll(
                        storedChangelog
                                ? changelog(snapshot, tally)
                                : splits.of(snapshot, delta.added(), Split.Kind.DELTA, tally));
                return all;
            }
            default -> throw new IllegalStateException("Unknown commit kind of " + snapshot);
        }
    }

    /** The files {@code snapshot} added and removed, counting the manifests read for them. */
    private SnapshotReader.Delta delta(Snapshot snapshot, ScanTally tally) {
        List<ManifestFileMeta> manifests = reader.deltaManifests(snapshot);
        tally.manifests(manifests.size());
        return new SnapshotReader.Delta(snapshot, reader.entries(manifests));
    }

    private List<Split> changelog(Snapshot snapshot, ScanTally tally) {
        List<ManifestFileMeta> manifests = reader.changelogManifests(snapshot);
        tally.manifests(manifests.size());
        List<ManifestEntry> files = reader.entries(manifests);
        Set<BucketId> imaged = new HashSet<>();
        for (ManifestEntry e : files) {
            if (e.file().content() == FileContent.BEFORE_IMAGES) {
                imaged.add(e.bucketId());
            }
        }
        if (!imaged.isEmpty()) {
            // The new rows of the flushes whose before-images it stores: its level-0 files.
            List<ManifestEntry> all = new ArrayList<>(files);
            for (ManifestEntry e : delta(snapshot, tally).added()) {
                if (imaged.contains(e.bucketId())) {
                    all.add(e);
                }
            }
            files = all;
        }
        return files.isEmpty()
                ? List.of()
                : splits.of(snapshot, files, Split.Kind.CHANGELOG, tally);
    }
}
