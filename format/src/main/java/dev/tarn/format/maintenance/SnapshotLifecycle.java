package dev.tarn.format.maintenance;

import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.iceberg.IcebergMaintenance;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.Consumer;
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
     * What one explicit expiration may remove; a null field takes the table's option. Fields are
     * named, in messages, as the {@code sys.expire_snapshots} arguments that set them.
     *
     * @param retainMax keep at most this many snapshots ({@code snapshot.num-retained.max})
     * @param retainMin keep at least this many ({@code snapshot.num-retained.min}), at least 1,
     *     never more than {@code retainMax}
     * @param olderThanMillis only snapshots committed before this may expire (instead of now minus
     *     {@code snapshot.time-retained})
     * @param maxDeletes remove at most this many snapshots; null: as many as the others allow (the
     *     per-run {@code snapshot.expire.limit} bounds only the expiration after commits)
     */
    public record ExpireRequest(
            @Nullable Integer retainMax,
            @Nullable Integer retainMin,
            @Nullable Long olderThanMillis,
            @Nullable Integer maxDeletes) {}

    /**
     * What an expiration did: the snapshots it removed, how many are {@code left}, the data and
     * changelog files, index files of deletion vectors, metadata files (manifests, lists and index
     * manifests) and tags it deleted.
     */
    public record ExpireResult(
            String table,
            int snapshots,
            long left,
            int dataFiles,
            int indexFiles,
            int metadataFiles,
            int tags) {

        /** One line for an operator; index files are named only where there were some. */
        public String summary() {
            return String.format(
                    "Expired %s of table %s, %d left: deleted %s%s, %s and %s",
                    Counts.of(snapshots, "snapshot"),
                    table,
                    left,
                    Counts.of(dataFiles, "data file"),
                    andIndexFiles(indexFiles),
                    Counts.of(metadataFiles, "manifest file"),
                    Counts.of(tags, "expired tag"));
        }
    }

    /** What a rollback removed to bring {@code table} back to {@code snapshotId}. */
    public record RollbackResult(
            String table,
            long snapshotId,
            int snapshots,
            int dataFiles,
            int indexFiles,
            int metadataFiles) {

        /** One line for an operator; index files are named only where there were some. */
        public String summary() {
            return String.format(
                    "Rolled table %s back to snapshot %d: removed %s, %s%s and %s",
                    table,
                    snapshotId,
                    Counts.of(snapshots, "snapshot"),
                    Counts.of(dataFiles, "data file"),
                    andIndexFiles(indexFiles),
                    Counts.of(metadataFiles, "manifest file"));
        }
    }

    /** ", 1 index file" in a summary; nothing for none (a table without deletion vectors). */
    private static String andIndexFiles(int count) {
        return count == 0 ? "" : ", " + Counts.of(count, "index file");
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

    /**
     * Expires by the table's options, now, at most {@code snapshot.expire.limit} snapshots: the
     * expiration after commits, which drains a backlog over several runs.
     */
    public static ExpireResult expire(TableContext table) {
        long now = System.currentTimeMillis();
        return new SnapshotExpiration(table).run(automatic(table, now), now);
    }

    /** The settings of the expiration after commits at {@code nowMillis}: the table's options. */
    static SnapshotExpiration.Settings automatic(TableContext table, long nowMillis) {
        TableConfig.Lifecycle lifecycle = table.config().lifecycle();
        TableConfig.Retention options = lifecycle.retention();
        return new SnapshotExpiration.Settings(
                options.min(),
                options.max(),
                nowMillis - options.time().toMillis(),
                options.limit(),
                lifecycle.consumerExpiration());
    }

    /**
     * Expires all the snapshots that {@code request} over the table's options lets go (at most
     * {@code maxDeletes}, if given), then the tags whose retention passed before {@code nowMillis}.
     *
     * @throws IllegalArgumentException as {@link #checkRequest}
     */
    public static ExpireResult expire(TableContext table, ExpireRequest request, long nowMillis) {
        checkRequest(table, request);
        TableConfig.Lifecycle lifecycle = table.config().lifecycle();
        TableConfig.Retention options = lifecycle.retention();
        long olderThan =
                request.olderThanMillis() != null
                        ? request.olderThanMillis()
                        : nowMillis - options.time().toMillis();
        return new SnapshotExpiration(table)
                .run(
                        new SnapshotExpiration.Settings(
                                retainMin(request, options),
                                retainMax(request, options),
                                olderThan,
                                request.maxDeletes() != null
                                        ? request.maxDeletes()
                                        : Integer.MAX_VALUE,
                                lifecycle.consumerExpiration()),
                        nowMillis);
    }

    /**
     * Checks {@code request} against itself and the table's options, as {@link #expire} does before
     * it deletes anything.
     *
     * @throws IllegalArgumentException naming the values if the request keeps no snapshot, removes
     *     none, or keeps at most fewer than it keeps at least (its own or the table's, named so)
     */
    public static void checkRequest(TableContext table, ExpireRequest request) {
        TableConfig.Retention options = table.config().lifecycle().retention();
        int min = retainMin(request, options);
        int max = retainMax(request, options);
        String problem = null;
        if (min < 1) {
            problem = "retain_min " + min + " keeps no snapshot; it must be at least 1";
        } else if (request.maxDeletes() != null && request.maxDeletes() < 1) {
            problem =
                    "max_deletes "
                            + request.maxDeletes()
                            + " removes no snapshot; it must be at least 1";
        } else if (max < min) {
            String minFrom =
                    request.retainMin() == null ? " (the table's 'snapshot.num-retained.min')" : "";
            String maxFrom =
                    request.retainMax() == null ? " (the table's 'snapshot.num-retained.max')" : "";
            String hint =
                    request.retainMin() == null
                            ? "; give a retain_min of at most " + max + " too"
                            : request.retainMax() == null
                                    ? "; give a retain_max of at least " + min + " too"
                                    : "";
            problem =
                    String.format(
                            "retain_max %d%s is less than retain_min %d%s%s",
                            max, maxFrom, min, minFrom, hint);
        }
        if (problem != null) {
            throw new IllegalArgumentException(
                    "Cannot expire snapshots of table " + table.name() + ": " + problem);
        }
    }

    private static int retainMin(ExpireRequest request, TableConfig.Retention options) {
        return request.retainMin() != null ? request.retainMin() : options.min();
    }

    private static int retainMax(ExpireRequest request, TableConfig.Retention options) {
        return request.retainMax() != null ? request.retainMax() : options.max();
    }

    /** A background expirer of {@code table}; the caller closes it. */
    public static Expirer inBackground(TableContext table) {
        return inBackground(table, result -> {});
    }

    /**
     * A background expirer of {@code table} that tells {@code listener} what each run did (on its
     * thread; a run that failed is only logged); the caller closes it.
     */
    public static Expirer inBackground(TableContext table, Consumer<ExpireResult> listener) {
        return new BackgroundExpiration(table, listener);
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
        RollbackResult result = new Rollback(table).toSnapshot(snapshotId);
        IcebergMaintenance.afterRollback(table, result.snapshotId());
        return result;
    }

    /**
     * Rolls {@code table} back to the snapshot of tag {@code tag}, restoring it from the tag if it
     * expired.
     *
     * @throws IllegalArgumentException naming the tag if there is no such tag
     */
    public static RollbackResult rollbackToTag(TableContext table, String tag) {
        RollbackResult result = new Rollback(table).toTag(tag);
        IcebergMaintenance.afterRollback(table, result.snapshotId());
        return result;
    }

    private static String describe(OptionalLong id) {
        return id.isPresent() ? String.valueOf(id.getAsLong()) : "none";
    }
}
