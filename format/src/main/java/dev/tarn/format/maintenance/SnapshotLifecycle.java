package dev.tarn.format.maintenance;

import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.OptionalLong;
import javax.annotation.Nullable;

/**
 * The entry points of a table's snapshot lifecycle (SPEC.md, "Snapshot expiration", "Tags",
 * "Rollback"): expiring old snapshots and the files only they hold, now or in the background after
 * commits; creating and deleting tags; rolling back to a snapshot or a tag. The catalog's
 * procedures and the connector's committer call these; the work is in package-private classes
 * beside it. Each call runs in the calling thread (but {@link #inBackground}) and is safe to repeat
 * after a failure.
 */
public final class SnapshotLifecycle {

    /**
     * What one expiration may remove, over the table's options; a null field keeps the option.
     *
     * @param retainMax keep at most this many snapshots ({@code snapshot.num-retained.max})
     * @param retainMin keep at least this many ({@code snapshot.num-retained.min}), at least 1; if
     *     null while {@code retainMax} is given, at most {@code retainMax}
     * @param olderThanMillis only snapshots committed before this may expire (instead of now minus
     *     {@code snapshot.time-retained})
     * @param maxDeletes remove at most this many snapshots ({@code snapshot.expire.limit})
     */
    public record ExpireRequest(
            @Nullable Integer retainMax,
            @Nullable Integer retainMin,
            @Nullable Long olderThanMillis,
            @Nullable Integer maxDeletes) {

        /** The table's options as they are. */
        public static final ExpireRequest OPTIONS = new ExpireRequest(null, null, null, null);
    }

    /** What an expiration deleted: snapshots, data and changelog files, metadata files, tags. */
    public record ExpireResult(
            String table, int snapshots, int dataFiles, int metadataFiles, int tags) {

        /** One line for an operator. */
        public String summary() {
            return String.format(
                    "Expired %d snapshots of table %s: deleted %d data files, %d manifest files"
                            + " and %d expired tags",
                    snapshots, table, dataFiles, metadataFiles, tags);
        }
    }

    /** What a rollback removed to bring {@code table} back to {@code snapshotId}. */
    public record RollbackResult(
            String table, long snapshotId, int snapshots, int dataFiles, int metadataFiles) {

        /** One line for an operator. */
        public String summary() {
            return String.format(
                    "Rolled table %s back to snapshot %d: removed %d snapshots, %d data files and"
                            + " %d manifest files",
                    table, snapshotId, snapshots, dataFiles, metadataFiles);
        }
    }

    /**
     * Expiration off the caller's thread: {@link #trigger} asks for a run and returns at once; at
     * most one run is in flight and one more waits, whatever the number of triggers. A failed run
     * is logged and never reaches the caller.
     */
    public interface Expirer extends CommitHook {

        /** Asks for an expiration run by the table's options. */
        void trigger();

        /** After every commit: a run by the table's options. */
        @Override
        default void afterCommit(TableCommit.Result result) {
            trigger();
        }

        /** Stops the thread once a run in flight finished (interrupting it after 10 s). */
        @Override
        void close();
    }

    private SnapshotLifecycle() {}

    /** Expires by the table's options, now. */
    public static ExpireResult expire(TableContext table) {
        return expire(table, ExpireRequest.OPTIONS, System.currentTimeMillis());
    }

    /**
     * Expires snapshots by {@code request} over the table's options, then the tags whose retention
     * passed before {@code nowMillis}.
     *
     * @throws IllegalArgumentException naming the value if the request keeps no snapshot or removes
     *     none
     */
    public static ExpireResult expire(TableContext table, ExpireRequest request, long nowMillis) {
        TableConfig.Lifecycle lifecycle = table.config().lifecycle();
        TableConfig.Retention options = lifecycle.retention();
        int max = request.retainMax() != null ? request.retainMax() : options.max();
        // A call that only lowers the most kept below the table's fewest lowers the fewest too.
        int min =
                request.retainMin() != null
                        ? request.retainMin()
                        : request.retainMax() != null
                                ? Math.min(options.min(), max)
                                : options.min();
        int limit = request.maxDeletes() != null ? request.maxDeletes() : options.limit();
        long olderThan =
                request.olderThanMillis() != null
                        ? request.olderThanMillis()
                        : nowMillis - options.time().toMillis();
        if (min < 1 || max < min || limit < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot expire snapshots of table %s: it must keep at least 1 snapshot"
                                    + " and at most as many as it keeps at least, and remove at"
                                    + " least 1; got at least %d, at most %d, remove %d",
                            table.name(), min, max, limit));
        }
        return new SnapshotExpiration(table)
                .run(
                        new SnapshotExpiration.Settings(
                                min, max, olderThan, limit, lifecycle.consumerExpiration()),
                        nowMillis);
    }

    /** A background expirer of {@code table}; the caller closes it. */
    public static Expirer inBackground(TableContext table) {
        return new BackgroundExpiration(table);
    }

    /**
     * Tags snapshot {@code snapshotId} (the latest if empty) as {@code name}.
     *
     * @param timeRetained how long the tag is kept; null: {@code tag.default-time-retained}
     * @throws IllegalArgumentException naming the tag or the snapshot if the tag exists, the name
     *     is invalid or the snapshot does not exist
     */
    public static Tag createTag(
            TableContext table,
            String name,
            OptionalLong snapshotId,
            @Nullable Duration timeRetained,
            long nowMillis) {
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong id = snapshotId.isPresent() ? snapshotId : snapshots.latestId();
        if (id.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create tag '%s' of table %s: the table has no snapshot yet",
                            name, table.name()));
        }
        if (!snapshots.exists(id.getAsLong())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create tag '%s' of table %s: snapshot %d does not exist; the"
                                    + " table has snapshots %s to %s",
                            name,
                            table.name(),
                            id.getAsLong(),
                            describe(snapshots.earliestId()),
                            describe(snapshots.latestId())));
        }
        Snapshot snapshot = snapshots.snapshot(id.getAsLong());
        Duration retained =
                timeRetained != null ? timeRetained : table.config().lifecycle().tagTimeRetained();
        return table.tags().create(name, snapshot, retained, nowMillis);
    }

    /**
     * Deletes tag {@code name} and the files only it kept.
     *
     * @throws IllegalArgumentException naming the tag if there is no such tag
     */
    public static void deleteTag(TableContext table, String name) {
        Tag tag =
                table.tags()
                        .get(name)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                String.format(
                                                        "Cannot delete tag '%s' of table %s: no"
                                                                + " such tag",
                                                        name, table.name())));
        try {
            new TagCleanup(table).delete(tag);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot delete tag '"
                            + name
                            + "' of table "
                            + table.name()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Rolls {@code table} back to snapshot {@code snapshotId}: later snapshots and the files only
     * they hold are removed; the next commit gets id {@code snapshotId + 1}.
     *
     * @throws IllegalArgumentException naming the snapshot if it does not exist or a later one is
     *     tagged
     * @throws IllegalStateException if an expiration of the table is unfinished
     */
    public static RollbackResult rollbackTo(TableContext table, long snapshotId) {
        return new Rollback(table).toSnapshot(snapshotId);
    }

    /**
     * Rolls {@code table} back to the snapshot of tag {@code tag}, restoring it from the tag if it
     * expired.
     *
     * @throws IllegalArgumentException naming the tag if there is no such tag
     */
    public static RollbackResult rollbackToTag(TableContext table, String tag) {
        return new Rollback(table).toTag(tag);
    }

    private static String describe(OptionalLong id) {
        return id.isPresent() ? String.valueOf(id.getAsLong()) : "none";
    }
}
