package dev.tarn.format;

import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireResult;
import dev.tarn.format.maintenance.SnapshotLifecycle.RollbackResult;
import dev.tarn.format.maintenance.TableCheck;
import dev.tarn.format.maintenance.TableHealth;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import javax.annotation.Nullable;

/**
 * The maintenance operations of a table (what the catalog's {@code CALL sys.*} procedures run):
 * snapshot expiration, orphan-file removal, rollback, tags, the integrity check and full
 * compaction. The work is done by {@code format.maintenance}; this only hands it the table. Each
 * operation's contract (errors, concurrency) is that of the class it names.
 */
public final class TableMaintenance {

    private final TableContext table;

    TableMaintenance(TableContext table) {
        this.table = table;
    }

    /**
     * Expires by the table's options, now, at most {@code snapshot.expire.limit} snapshots: what a
     * committer runs after its commits ({@link SnapshotLifecycle#expire(TableContext)}).
     */
    public ExpireResult expireSnapshots() {
        return SnapshotLifecycle.expire(table);
    }

    /**
     * Expires what {@code request} over the table's options lets go, then the tags whose retention
     * passed before {@code nowMillis}.
     *
     * @throws IllegalArgumentException as {@link #checkExpireRequest}
     */
    public ExpireResult expireSnapshots(ExpireRequest request, long nowMillis) {
        return SnapshotLifecycle.expire(table, request, nowMillis);
    }

    /**
     * @throws IllegalArgumentException naming the count and the values if the request's counts
     *     contradict each other or the table's options
     */
    public void checkExpireRequest(ExpireRequest request) {
        SnapshotLifecycle.checkRequest(table, request);
    }

    /**
     * The expiration a committer runs in the background after its commits, for those that measure
     * it; the caller closes it.
     */
    public SnapshotLifecycle.Expirer backgroundExpiration() {
        return SnapshotLifecycle.inBackground(table);
    }

    /**
     * Removes (or with {@code dryRun} lists) the table's orphan files ({@link RemoveOrphanFiles}).
     *
     * @param olderThan only files modified before it go; null: a day before {@code now}
     * @param force allows a threshold less than an hour before {@code now}
     */
    public RemoveOrphanFiles.Result removeOrphanFiles(
            @Nullable Instant olderThan, boolean dryRun, boolean force, Instant now) {
        return RemoveOrphanFiles.run(table, olderThan, dryRun, force, now);
    }

    /** Rolls the table back to snapshot {@code snapshotId} (SPEC.md, "Rollback"). */
    public RollbackResult rollbackTo(long snapshotId) {
        return SnapshotLifecycle.rollbackTo(table, snapshotId);
    }

    /** Rolls the table back to the snapshot tagged {@code tag}. */
    public RollbackResult rollbackToTag(String tag) {
        return SnapshotLifecycle.rollbackToTag(table, tag);
    }

    /**
     * Tags snapshot {@code snapshotId} (the latest if empty) as {@code name}.
     *
     * @param timeRetained how long the tag is kept; null: {@code tag.default-time-retained}
     * @throws IllegalArgumentException naming the tag or the snapshot if the tag exists, the name
     *     is invalid or the snapshot does not exist
     */
    public Tags.Tag createTag(
            String name, OptionalLong snapshotId, @Nullable Duration timeRetained, long nowMillis) {
        return SnapshotLifecycle.createTag(table, name, snapshotId, timeRetained, nowMillis);
    }

    /**
     * Deletes tag {@code name} and the files only it kept.
     *
     * @throws IllegalArgumentException naming the tag if there is none by that name
     */
    public void deleteTag(String name) {
        SnapshotLifecycle.deleteTag(table, name);
    }

    /** Checks that every file the retained snapshots reference is there ({@link TableCheck}). */
    public TableCheck.Result check(boolean deep) {
        return TableCheck.run(table, deep);
    }

    /** The table's state at a glance for an operator ({@link TableHealth}). */
    public TableHealth.Report health() {
        return TableHealth.of(table);
    }

    /**
     * Plans a full compaction of the buckets of the partitions {@code partitions} accepts; empty
     * for a table without snapshots. The plan's units go to {@link #newCompactor}s, possibly in
     * other processes, and their messages to {@link #publishCompaction}.
     */
    public Optional<FullCompaction.Plan> planFullCompaction(Predicate<Partition> partitions) {
        return FullCompaction.plan(table, partitions);
    }

    /** Compacts the units of a plan; close it to delete what it wrote but did not hand out. */
    public FullCompaction.Compactor newCompactor() {
        return new FullCompaction.Compactor(table);
    }

    /** Publishes the compacted files of {@code plan} as one COMPACT snapshot. */
    public FullCompaction.Result publishCompaction(
            FullCompaction.Plan plan, List<CommitMessage> messages) {
        return FullCompaction.publish(table, plan, messages);
    }

    /**
     * Plans, compacts and publishes a full compaction in the calling process, on one thread; empty
     * for a table without snapshots.
     */
    public Optional<FullCompaction.Result> compactFully() {
        return FullCompaction.run(table);
    }
}
