package dev.tarn.format.commit;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit seam: publishes a {@link CommitRequest} (its {@link CommitMessage}s) as snapshots, one
 * call for every kind of commit, and only what no snapshot of its commit user holds yet, so a retry
 * after a failure is safe. The protocol (SPEC.md, "Commit protocol"): each attempt reads the latest
 * snapshot, stages the commit's changes against it ({@link Staging}, one per commit kind; then a
 * {@link CommitAttempt}: manifests and lists written) and creates {@code snapshot-<n+1>} through
 * the table's atomic publish step ({@code SnapshotCommit}). A committer that loses the race stages
 * again and retries as {@link CommitRetry} says. Its {@link CommitHook}s run before and after each
 * snapshot is published, and after each call.
 *
 * <p>Failure: an exception before the snapshot file is created leaves the table unchanged (stray
 * manifests are unreferenced). If creating the snapshot file fails with an unknown outcome, {@link
 * CommitStateUnknownException} is thrown and the caller must keep the data files.
 *
 * <p>It stays over 400 lines: what of a request is still unpublished (the recovery rule of
 * idempotent commits, kept with the commit user's last known identifier) and the attempts that
 * publish the rest are one decision, made against the same latest snapshot; the staging of each
 * commit kind, the attempt and the retry policy are classes of their own already.
 */
public final class TableCommit implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TableCommit.class);

    /**
     * Clocks of the process that began a commit user (a planner) and of the committer may differ: a
     * look-back for the user's snapshots goes this much further back than the user's start.
     */
    private static final long CLOCK_SKEW_MILLIS = 10 * 60 * 1000;

    private final TableContext table;
    private final String commitUser;
    private final long lookBackMillis;

    /** The user published no snapshot up to this id: a look-back stops above it. */
    private final long userAfterSnapshot;

    private final List<CommitHook> hooks;
    private final SnapshotManager snapshots;
    private final CommitRetry retry;

    /** The highest schema id the writers' schema is compatible with (SPEC.md, section 2). */
    private long schemaChecked;

    /** The manifest lists this committer wrote: its next commit builds on them. */
    private final WrittenLists written = new WrittenLists();

    /**
     * The identifier of the user's latest published commit as this committer knows it, once it
     * looked back or published (a user has one committer at a time): a later identifier is then
     * published without looking back, so a commit reads no snapshot more than its attempt needs.
     * Forgotten on a failure, whose outcome the next call looks up.
     */
    private long knownLast = UNKNOWN;

    /** What the current {@link #commit} call published so far; a new one per call. */
    private CommitTally tally = new CommitTally();

    private static final long UNKNOWN = Long.MIN_VALUE;

    /** A committer of a new commit user, of which only the latest snapshot can hold a commit. */
    public TableCommit(TableContext table, String commitUser) {
        this(table, commitUser, Long.MAX_VALUE, List.of());
    }

    /**
     * @param userSinceMillis when the commit user began: a commit looks back for the user's
     *     snapshots as far as those committed at or after it (less {@link #CLOCK_SKEW_MILLIS}), so
     *     the cost does not grow with the table's history; {@code Long.MAX_VALUE} for a user that
     *     has published nothing before this committer
     * @param hooks run after every commit call, closed with this committer
     */
    public TableCommit(
            TableContext table, String commitUser, long userSinceMillis, List<CommitHook> hooks) {
        this(table, commitUser, userSinceMillis, -1, hooks);
    }

    /**
     * As {@link #TableCommit(TableContext, String, long, List)}, for a user that began from
     * snapshot {@code userAfterSnapshot} (a compaction planned on it): its snapshots, if any, come
     * after that one, so a look-back for them stops there, however many snapshots the clock-skew
     * allowance would span at a high commit rate.
     */
    public TableCommit(
            TableContext table,
            String commitUser,
            long userSinceMillis,
            long userAfterSnapshot,
            List<CommitHook> hooks) {
        this.table = table;
        this.commitUser = commitUser;
        this.lookBackMillis =
                userSinceMillis == Long.MAX_VALUE
                        ? Long.MAX_VALUE
                        : userSinceMillis - CLOCK_SKEW_MILLIS;
        this.userAfterSnapshot = userAfterSnapshot;
        this.hooks = List.copyOf(hooks);
        this.snapshots = table.snapshotManager();
        this.retry = CommitRetry.of(table.name(), table.config().commit());
        this.schemaChecked = table.schema().id();
    }

    /**
     * What a commit published.
     *
     * @param snapshotId the id of the last new snapshot; for a commit found published before, the
     *     user's latest snapshot; empty if none was published
     * @param droppedCompactions compactions left out because another writer replaced one of their
     *     input files first, or changed the deletion vector of one (or kept winning the race for
     *     the next snapshot); their output files are deleted, their inputs stay live
     * @param dropReasons why each of {@code droppedCompactions} was dropped, in its order, naming
     *     the file another commit changed
     * @param alreadyCommitted whether a snapshot of the commit user held the whole commit already
     *     (a retry after a failure that struck after the publish), so this call published nothing
     * @param stats what the call published and how long it took, for metrics
     */
    public record Result(
            OptionalLong snapshotId,
            List<CommitMessage> droppedCompactions,
            List<String> dropReasons,
            boolean alreadyCommitted,
            CommitStats stats) {

        public Result {
            droppedCompactions = List.copyOf(droppedCompactions);
            dropReasons = List.copyOf(dropReasons);
            if (dropReasons.size() != droppedCompactions.size()) {
                throw new IllegalArgumentException(
                        String.format(
                                "A commit result needs one reason per dropped compaction, got %d"
                                        + " for %d",
                                dropReasons.size(), droppedCompactions.size()));
            }
        }

        /** A result without stats yet: {@link #commit} adds the call's when it returns. */
        public Result(
                OptionalLong snapshotId,
                List<CommitMessage> droppedCompactions,
                List<String> dropReasons,
                boolean alreadyCommitted) {
            this(snapshotId, droppedCompactions, dropReasons, alreadyCommitted, CommitStats.NONE);
        }

        Result withStats(CommitStats stats) {
            return new Result(snapshotId, droppedCompactions, dropReasons, alreadyCommitted, stats);
        }

        static Result nothing() {
            return new Result(OptionalLong.empty(), List.of(), List.of(), false);
        }
    }

    /**
     * Publishes what of {@code request} no snapshot of this commit user holds yet, then runs the
     * hooks: everything if none holds its identifier; only the compactions if a failure struck
     * between its APPEND and COMPACT snapshots; nothing if it is complete (or a later identifier is
     * published).
     *
     * <p>A commit that adds rows publishes the messages that only add files as one APPEND snapshot,
     * then those that replace files (compactions) as one COMPACT snapshot, both with the request's
     * identifier. The APPEND snapshot comes first, so a compaction may replace files added in the
     * same commit, and every new row is in an APPEND snapshot. A compaction that no longer applies
     * (another writer replaced one of its inputs) is dropped, not failed: the commit fails only if
     * its new rows are not published. A dropped compaction's output files are deleted; a writer
     * that still holds them in its view of the bucket must refresh it ({@code TableWrite} does so
     * by itself). Both snapshots record the request's watermark (or the table's, if that is
     * higher). A commit that changes nothing still publishes an APPEND snapshot without files when
     * its watermark is above the table's, so readers learn that event time advanced while no rows
     * came.
     *
     * <p>An overwrite publishes one OVERWRITE snapshot that deletes every live file of the
     * partitions its scope selects and adds the messages' files.
     *
     * @throws CommitConflictException if the APPEND or OVERWRITE snapshot lost the race for a
     *     snapshot id more than {@code commit.max-retries} times; nothing was published
     */
    public Result commit(CommitRequest request) {
        Result result;
        tally = new CommitTally();
        try {
            result = publishRemaining(request).withStats(tally.stats());
        } catch (RuntimeException e) {
            knownLast = UNKNOWN;
            throw e;
        }
        for (CommitHook hook : hooks) {
            try {
                hook.afterCommit(result);
            } catch (RuntimeException e) {
                LOG.warn(
                        "A hook after commit {} of table {} failed",
                        request.identifier(),
                        table.name(),
                        e);
            }
        }
        return result;
    }

    private Result publishRemaining(CommitRequest request) {
        if (knownLast != UNKNOWN && knownLast < request.identifier()) {
            Result result = publish(request);
            knownLast = request.identifier();
            return result;
        }
        UserCommit last = lastCommitOfUser();
        if (last == null || last.commit().identifier() < request.identifier()) {
            Result result = publish(request);
            knownLast = request.identifier();
            return result;
        }
        knownLast = last.commit().identifier();
        List<CommitMessage> compactions = request.compactions();
        if (request.overwrite() == null
                && last.commit().identifier() == request.identifier()
                && last.commit().kind() == CommitKind.APPEND
                && !compactions.isEmpty()) {
            return publishCompactions(request.identifier(), compactions, request.watermark());
        }
        return new Result(OptionalLong.of(last.snapshotId()), List.of(), List.of(), true);
    }

    /** Publishes all of {@code request}, whatever is published already. */
    private Result publish(CommitRequest request) {
        if (request.overwrite() != null) {
            OverwriteStaging staging =
                    new OverwriteStaging(table.name(), request.overwrite(), request.messages());
            return new Result(
                    tryCommit(
                            header(request.identifier(), staging.kind(), request.watermark()),
                            staging),
                    List.of(),
                    List.of(),
                    false);
        }
        AppendStaging appends =
                new AppendStaging(table.name(), new VectorRebase(table), request.appends());
        List<CommitMessage> compactions = request.compactions();
        OptionalLong last = OptionalLong.empty();
        if (!appends.isEmpty() || (compactions.isEmpty() && request.watermark() != null)) {
            last =
                    tryCommit(
                            header(request.identifier(), appends.kind(), request.watermark()),
                            appends);
        }
        Result compacted =
                publishCompactions(request.identifier(), compactions, request.watermark());
        return compacted.snapshotId().isPresent()
                ? compacted
                : new Result(last, compacted.droppedCompactions(), compacted.dropReasons(), false);
    }

    /** Orders the encoded primary keys of files' key ranges; null for an append table. */
    @Nullable
    private Comparator<byte[]> keyOrder() {
        if (table.kind() != TableKind.PRIMARY_KEY) {
            return null;
        }
        KeyValueSchema schema = KeyValueSchema.of(table.schema());
        return schema::compareKeys;
    }

    /** Publishes the compactions that still apply as one COMPACT snapshot; drops the others. */
    private Result publishCompactions(
            long identifier, List<CommitMessage> compactions, @Nullable Long watermark) {
        if (compactions.isEmpty()) {
            return Result.nothing();
        }
        CompactionStaging staging = new CompactionStaging(compactions, keyOrder());
        OptionalLong id = OptionalLong.empty();
        try {
            id = tryCommit(header(identifier, staging.kind(), watermark), staging);
        } catch (CommitConflictException e) {
            // Lost the race for a snapshot id every time: the rows are safe in the inputs.
            LOG.warn(
                    "Dropping the compactions of commit {} of table {}: {}",
                    identifier,
                    table.name(),
                    e.getMessage());
            staging.dropAll("it lost the race for the next snapshot: " + e.getMessage());
        }
        List<CommitMessage> dropped = staging.dropped();
        List<String> reasons = staging.reasons(dropped);
        if (!dropped.isEmpty()) {
            LOG.info(
                    "Dropped {} compactions of commit {} of table {}: {}",
                    dropped.size(),
                    identifier,
                    table.name(),
                    String.join("; ", reasons));
            abort(dropped);
        }
        return new Result(id, dropped, reasons, false);
    }

    /** The latest snapshot of a commit user and its id. */
    private record UserCommit(long snapshotId, Snapshot.Commit commit) {}

    /**
     * The commit of this user's latest snapshot, looking back as far as the user began; or null.
     */
    @Nullable
    private UserCommit lastCommitOfUser() {
        OptionalLong latest = snapshots.latestId();
        if (latest.isEmpty()) {
            return null;
        }
        // Expiration may remove every older snapshot between the two look-ups.
        long earliest =
                Math.max(snapshots.earliestId().orElse(latest.getAsLong()), userAfterSnapshot + 1);
        for (long id = latest.getAsLong(); id >= earliest; id--) {
            Snapshot s;
            try {
                s = snapshots.snapshot(id);
            } catch (IllegalArgumentException e) {
                if (!snapshots.exists(id)) {
                    break; // Expired while we looked.
                }
                throw e;
            }
            if (s.commit().user().equals(commitUser)) {
                return new UserCommit(id, s.commit());
            }
            if (s.commit().timeMillis() < lookBackMillis) {
                break;
            }
        }
        return null;
    }

    /** Deletes the new files of messages that will never be committed. */
    public void abort(List<CommitMessage> messages) {
        for (CommitMessage m : messages) {
            Path dir = table.bucketPath(m.partition(), m.bucket());
            DataFiles.deleteUnreferenced(table.io(), dir, m.newFiles());
            DataFiles.deleteUnreferenced(table.io(), dir, m.changelogFiles());
        }
    }

    /** Closes the hooks. */
    @Override
    public void close() {
        for (CommitHook hook : hooks) {
            hook.close();
        }
    }

    /**
     * The live files of {@code latest}; its manifest lists from {@link #written} if this committer
     * wrote them (its own last snapshot), so an append commit reads no list back.
     */
    private Map<ManifestEntry.FileId, ManifestEntry> liveFiles(@Nullable Snapshot latest) {
        return latest == null
                ? Map.of()
                : table.snapshotReader().liveFiles(written.manifests(table, latest));
    }

    private Map<ManifestEntry.FileId, DeletionFile> vectors(@Nullable Snapshot latest) {
        return latest == null ? Map.of() : table.snapshotReader().vectors(latest);
    }

    /**
     * Publishes what {@code staging} makes of the latest snapshot as the next snapshot, staging
     * again after every lost race.
     *
     * @return the new snapshot's id, or empty if the staging left nothing to publish
     */
    private OptionalLong tryCommit(CommitAttempt.Header header, Staging staging) {
        SharedManifest deltaManifest =
                new SharedManifest(table.manifestFile(), table.schema().id());
        SharedManifest changelogManifest =
                new SharedManifest(table.manifestFile(), table.schema().id());
        try {
            return retry.run(
                    attempt -> {
                        tally.attempt();
                        // Refuses files of a schema changed incompatibly under the writer.
                        schemaChecked =
                                table.schemaManager().checkWriter(table.schema(), schemaChecked);
                        Snapshot latest = snapshots.readLatest().orElse(null);
                        Map<ManifestEntry.FileId, DeletionFile> vectors = vectors(latest);
                        Map<ManifestEntry.FileId, ManifestEntry> live = liveFiles(latest);
                        List<ManifestEntry> delta = staging.stage(latest, live, vectors);
                        List<ManifestEntry> changelog = staging.changelog();
                        Map<ManifestEntry.FileId, DeletionFile> vectorsAfter = staging.vectors();
                        boolean vectorsChanged = !vectorsAfter.equals(vectors);
                        if (delta.isEmpty()
                                && changelog.isEmpty()
                                && !vectorsChanged
                                && !staging.publishesWhenEmpty(
                                        CommitAttempt.advances(header.watermark(), latest))) {
                            return OptionalLong.empty();
                        }
                        CommitAttempt staged = new CommitAttempt(table, latest, written);
                        try {
                            ManifestFileMeta manifest =
                                    delta.isEmpty()
                                            ? null
                                            : write(staged, deltaManifest, staging, delta);
                            ManifestFileMeta changes =
                                    changelog.isEmpty()
                                            ? null
                                            : write(staged, changelogManifest, staging, changelog);
                            String index =
                                    vectorsChanged
                                            ? staged.writeIndex(vectorsAfter)
                                            : latest == null ? null : latest.indexManifest();
                            Snapshot snapshot =
                                    staged.stage(header, manifest, delta, changes, index);
                            CommitHook.Staged next =
                                    new CommitHook.Staged(
                                            snapshot,
                                            latest,
                                            live,
                                            delta,
                                            vectorsAfter,
                                            vectorsChanged);
                            for (CommitHook hook : hooks) {
                                hook.beforePublish(next);
                            }
                            if (staged.publish(snapshot)) {
                                published(snapshot);
                                tally.published(header.kind(), delta, changelog);
                                return OptionalLong.of(snapshot.id());
                            }
                        } catch (CommitStateUnknownException e) {
                            throw e; // The snapshot may reference what this attempt wrote.
                        } catch (IOException e) {
                            staged.cleanUp();
                            throw new UncheckedIOException(
                                    "Cannot commit to table "
                                            + table.name()
                                            + ": "
                                            + e.getMessage(),
                                    e);
                        } catch (RuntimeException e) {
                            staged.cleanUp();
                            throw e;
                        }
                        staged.cleanUp();
                        return null; // Another committer won: stage again.
                    });
        } catch (CommitStateUnknownException e) {
            // The snapshot may exist and reference the manifest: keep it.
            throw e;
        } catch (RuntimeException e) {
            // No snapshot references the shared manifests: remove them with the failed commit.
            deltaManifest.deleteIfWritten();
            changelogManifest.deleteIfWritten();
            throw e;
        }
    }

    /** Tells the hooks that {@code snapshot} is published; their failures are only logged. */
    private void published(Snapshot snapshot) {
        for (CommitHook hook : hooks) {
            try {
                hook.afterPublish(snapshot);
            } catch (RuntimeException e) {
                LOG.warn(
                        "A hook after snapshot {} of table {} was published failed",
                        snapshot.id(),
                        table.name(),
                        e);
            }
        }
    }

    /**
     * The manifest of {@code entries}: shared by all attempts if the staging allows, else its own.
     */
    private static ManifestFileMeta write(
            CommitAttempt staged,
            SharedManifest shared,
            Staging staging,
            List<ManifestEntry> entries)
            throws IOException {
        return staging.sameEveryAttempt() ? shared.get(entries) : staged.writeManifest(entries);
    }

    private CommitAttempt.Header header(
            long identifier, CommitKind kind, @Nullable Long watermark) {
        return new CommitAttempt.Header(commitUser, identifier, kind, watermark);
    }
}
