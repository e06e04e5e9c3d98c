package dev.tarn.format.commit;

import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit seam: publishes {@link CommitMessage}s as one snapshot. The protocol (SPEC.md, "Commit
 * protocol"): each attempt reads the latest snapshot, stages the commit's changes against it (a
 * {@link CommitAttempt}: conflicts checked, manifests and lists written) and creates {@code
 * snapshot-<n+1>} through the table's atomic publish step ({@code SnapshotCommit}). A committer
 * that loses the race re-reads and retries as {@link CommitRetry} says.
 *
 * <p>Failure: an exception before the snapshot file is created leaves the table unchanged (stray
 * manifests are unreferenced). If creating the snapshot file fails with an unknown outcome, {@link
 * CommitStateUnknownException} is thrown and the caller must keep the data files.
 */
public final class TableCommit {

    private static final Logger LOG = LoggerFactory.getLogger(TableCommit.class);

    private final TableContext table;
    private final String commitUser;
    private final SnapshotManager snapshots;
    private final CommitRetry retry;

    /** The highest schema id the writers' schema is compatible with (SPEC.md, section 2). */
    private long schemaChecked;

    /** The manifest lists this committer wrote: its next commit builds on them. */
    private final WrittenLists written = new WrittenLists();

    public TableCommit(TableContext table, String commitUser) {
        this.table = table;
        this.commitUser = commitUser;
        this.snapshots = table.snapshotManager();
        this.retry = CommitRetry.of(table.name(), table.config().commit());
        this.schemaChecked = table.schema().id();
    }

    /**
     * What a commit published.
     *
     * @param snapshotId the id of the last new snapshot, or empty if none was published
     * @param droppedCompactions compactions left out because another writer replaced one of their
     *     input files first (or kept winning the race for the next snapshot); their output files
     *     are deleted, their inputs stay live
     */
    public record Result(OptionalLong snapshotId, List<CommitMessage> droppedCompactions) {}

    /**
     * As {@link #publish}, returning only the id of the last new snapshot (empty if the messages
     * hold no change that applies).
     */
    public OptionalLong commit(long identifier, List<CommitMessage> messages) {
        return publish(identifier, messages).snapshotId();
    }

    /** As {@link #publish(long, List, Long)}, without a watermark. */
    public Result publish(long identifier, List<CommitMessage> messages) {
        return publish(identifier, messages, null);
    }

    /**
     * Publishes {@code messages}: those that only add files as one APPEND snapshot, then those that
     * replace files (compactions) as one COMPACT snapshot, both with {@code identifier}. The APPEND
     * snapshot comes first, so a compaction may replace files added in the same commit, and every
     * new row is in an APPEND snapshot.
     *
     * <p>A compaction that no longer applies (another writer replaced one of its inputs) is
     * dropped, not failed: the commit fails only if its new rows are not published. A dropped
     * compaction's output files are deleted; a writer that still holds them in its view of the
     * bucket must refresh it ({@link TableWrite} does so by itself).
     *
     * <p>Both snapshots record {@code watermark} (or the table's, if that is higher). A commit that
     * changes nothing still publishes an APPEND snapshot without files when its watermark is above
     * the table's, so readers learn that event time advanced while no rows came.
     *
     * @param watermark the writers' event-time watermark at the commit, or null if they have none
     * @throws CommitConflictException if the APPEND snapshot lost the race for a snapshot id more
     *     than {@code commit.max-retries} times; nothing was published
     */
    public Result publish(long identifier, List<CommitMessage> messages, @Nullable Long watermark) {
        List<ManifestEntry> appends =
                CommitEntries.of(
                        messages.stream().filter(m -> m.deletedFiles().isEmpty()).toList());
        List<CommitMessage> compactions =
                messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList();
        // A compaction's changelog (full-compaction) belongs to its COMPACT snapshot.
        List<ManifestEntry> changelog =
                CommitEntries.changelog(
                        messages.stream().filter(m -> m.deletedFiles().isEmpty()).toList());
        OptionalLong last = OptionalLong.empty();
        boolean watermarkOnly = appends.isEmpty() && changelog.isEmpty() && compactions.isEmpty();
        if (!appends.isEmpty() || !changelog.isEmpty() || (watermarkOnly && watermark != null)) {
            last =
                    tryCommit(
                            header(identifier, CommitKind.APPEND, watermark),
                            latest -> appends,
                            () -> changelog);
        }
        Result compacted = publishCompactions(identifier, compactions, watermark);
        return compacted.snapshotId().isPresent()
                ? compacted
                : new Result(last, compacted.droppedCompactions());
    }

    /** Publishes the compactions that still apply as one COMPACT snapshot; drops the others. */
    private Result publishCompactions(
            long identifier, List<CommitMessage> compactions, @Nullable Long watermark) {
        if (compactions.isEmpty()) {
            return new Result(OptionalLong.empty(), List.of());
        }
        CompactionStaging staging = new CompactionStaging(compactions);
        OptionalLong id = OptionalLong.empty();
        try {
            id =
                    tryCommit(
                            header(identifier, CommitKind.COMPACT, watermark),
                            latest -> staging.stage(liveFiles(latest)),
                            staging::changelog);
        } catch (CommitConflictException e) {
            // Lost the race for a snapshot id every time: the rows are safe in the inputs.
            LOG.warn(
                    "Dropping the compactions of commit {} of table {}: {}",
                    identifier,
                    table.name(),
                    e.getMessage());
            staging.dropAll();
        }
        List<CommitMessage> dropped = staging.dropped();
        if (!dropped.isEmpty()) {
            LOG.info(
                    "Dropped {} compactions of commit {} of table {}: another writer replaced"
                            + " their input files first",
                    dropped.size(),
                    identifier,
                    table.name());
            abort(dropped);
        }
        return new Result(id, dropped);
    }

    /**
     * Replaces the rows of the partitions {@code scope} selects with {@code messages}' files, as
     * one OVERWRITE snapshot. The files to delete are chosen again from the latest snapshot on
     * every attempt, so a concurrent append into an overwritten partition is replaced too.
     */
    public long overwrite(
            long identifier, List<CommitMessage> messages, Predicate<Partition> scope) {
        return overwrite(identifier, messages, scope, null);
    }

    /** As {@link #overwrite(long, List, Predicate)}, recording the writers' {@code watermark}. */
    public long overwrite(
            long identifier,
            List<CommitMessage> messages,
            Predicate<Partition> scope,
            @Nullable Long watermark) {
        List<ManifestEntry> written = CommitEntries.of(messages);
        List<ManifestEntry> changelog = CommitEntries.changelog(messages);
        return tryCommit(
                        header(identifier, CommitKind.OVERWRITE, watermark),
                        latest -> {
                            List<ManifestEntry> delta = new ArrayList<>();
                            for (ManifestEntry e : liveFiles(latest).values()) {
                                if (scope.test(e.partition())) {
                                    delta.add(CommitEntries.deletion(e));
                                }
                            }
                            delta.addAll(written);
                            return delta;
                        },
                        () -> changelog)
                // Only a compaction can be left with nothing to publish.
                .getAsLong();
    }

    /**
     * Whether a snapshot of this commit user already holds {@code identifier} (or a later one:
     * identifiers grow). Looks back from the latest snapshot only as far as snapshots committed at
     * or after {@code sinceMillis}, when this user began, so the cost does not grow with the
     * table's history.
     */
    public boolean isCommitted(long identifier, long sinceMillis) {
        Snapshot.Commit last = lastCommitOfUser(sinceMillis);
        return last != null && last.identifier() >= identifier;
    }

    /**
     * Publishes what of the commit {@code identifier} no snapshot of this user holds yet, for a
     * retry after a failure: everything, as {@link #commit}, if none holds it; only the compactions
     * if the failure struck between the commit's APPEND and COMPACT snapshots; nothing if it is
     * complete (or a later identifier is committed). Looks back as {@link #isCommitted} does.
     *
     * @return false if nothing was left to publish
     */
    public boolean commitRemaining(
            long identifier, List<CommitMessage> messages, long sinceMillis) {
        return commitRemaining(identifier, messages, null, sinceMillis);
    }

    /**
     * As {@link #commitRemaining(long, List, long)}, recording the writers' {@code watermark} as
     * {@link #publish(long, List, Long)} does.
     */
    public boolean commitRemaining(
            long identifier,
            List<CommitMessage> messages,
            @Nullable Long watermark,
            long sinceMillis) {
        Snapshot.Commit last = lastCommitOfUser(sinceMillis);
        if (last == null || last.identifier() < identifier) {
            publish(identifier, messages, watermark);
            return true;
        }
        List<CommitMessage> compactions =
                messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList();
        if (last.identifier() > identifier
                || last.kind() != CommitKind.APPEND
                || compactions.isEmpty()) {
            return false;
        }
        publishCompactions(identifier, compactions, watermark);
        return true;
    }

    /** The commit of this user's latest snapshot, looking back to {@code sinceMillis}; or null. */
    @Nullable
    private Snapshot.Commit lastCommitOfUser(long sinceMillis) {
        OptionalLong latest = snapshots.latestId();
        if (latest.isEmpty()) {
            return null;
        }
        // Expiration may remove every older snapshot between the two look-ups.
        long earliest = snapshots.earliestId().orElse(latest.getAsLong());
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
                return s.commit();
            }
            if (s.commit().timeMillis() < sinceMillis) {
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

    /** The changes of one commit on top of the latest snapshot; staged again on every attempt. */
    private interface Staging {
        /** The entries to publish on top of {@code latest}; none if nothing applies any more. */
        List<ManifestEntry> stage(@Nullable Snapshot latest);
    }

    private Map<ManifestEntry.FileId, ManifestEntry> liveFiles(@Nullable Snapshot latest) {
        return latest == null ? Map.of() : table.snapshotReader().liveFiles(latest);
    }

    /**
     * Publishes what {@code staging} makes of the latest snapshot as the next snapshot, staging
     * again after every lost race. {@code changelogOf} is asked after each staging: a COMPACT
     * snapshot stores the changelog of the compactions that still apply.
     *
     * @return the new snapshot's id, or empty if the staging left nothing to publish
     */
    private OptionalLong tryCommit(
            CommitAttempt.Header header,
            Staging staging,
            Supplier<List<ManifestEntry>> changelogOf) {
        CommitKind kind = header.kind();
        SharedManifest appendManifest =
                new SharedManifest(table.manifestFile(), table.schema().id());
        SharedManifest changelogManifest =
                new SharedManifest(table.manifestFile(), table.schema().id());
        try {
            return retry.run(
                    attempt -> {
                        // Refuses files of a schema changed incompatibly under the writer.
                        schemaChecked =
                                table.schemaManager().checkWriter(table.schema(), schemaChecked);
                        Snapshot latest = snapshots.readLatest().orElse(null);
                        List<ManifestEntry> delta = staging.stage(latest);
                        List<ManifestEntry> changelog = changelogOf.get();
                        if (delta.isEmpty() && kind == CommitKind.COMPACT) {
                            return OptionalLong.empty(); // Nothing applies any more.
                        }
                        if (delta.isEmpty()
                                && changelog.isEmpty()
                                && kind == CommitKind.APPEND
                                && !CommitAttempt.advances(header.watermark(), latest)) {
                            return OptionalLong.empty(); // The table's watermark is as high.
                        }
                        CommitAttempt staged = new CommitAttempt(table, latest, written);
                        try {
                            ManifestFileMeta manifest;
                            if (kind == CommitKind.APPEND && delta.isEmpty()) {
                                manifest = null; // Nothing but the watermark or a changelog.
                            } else if (kind == CommitKind.APPEND) {
                                manifest = appendManifest.get(delta);
                            } else {
                                manifest = staged.writeManifest(delta);
                            }
                            ManifestFileMeta changes = null;
                            if (kind == CommitKind.COMPACT && !changelog.isEmpty()) {
                                // Which compactions apply may differ from attempt to attempt.
                                changes = staged.writeManifest(changelog);
                            } else if (!changelog.isEmpty()) {
                                changes = changelogManifest.get(changelog);
                            }
                            Snapshot snapshot = staged.stage(header, manifest, delta, changes);
                            if (staged.publish(snapshot)) {
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
            appendManifest.deleteIfWritten();
            changelogManifest.deleteIfWritten();
            throw e;
        }
    }

    private CommitAttempt.Header header(
            long identifier, CommitKind kind, @Nullable Long watermark) {
        return new CommitAttempt.Header(commitUser, identifier, kind, watermark);
    }
}
