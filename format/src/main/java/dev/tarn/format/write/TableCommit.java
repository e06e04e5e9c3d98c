package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.FileKind;
import dev.tarn.format.manifest.LiveFiles;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestFileMeta;
import dev.tarn.format.manifest.ManifestList;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.CommitKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * The commit seam: publishes {@link CommitMessage}s as one snapshot. The protocol (SPEC.md, "Commit
 * protocol"): write the delta manifest, then for each attempt read the latest snapshot, check for
 * conflicts, write the manifest lists and create {@code snapshot-<n+1>} exclusively. A committer
 * that loses the race re-reads and retries, up to {@code commit.max-retries} times.
 *
 * <p>Failure: an exception before the snapshot file is created leaves the table unchanged (stray
 * manifests are unreferenced). If creating the snapshot file fails with an unknown outcome, {@link
 * CommitStateUnknownException} is thrown and the caller must keep the data files.
 */
public final class TableCommit {

    private final Table table;
    private final String commitUser;
    private final SnapshotManager snapshots;
    private final ManifestList lists;

    public TableCommit(Table table, String commitUser) {
        this.table = table;
        this.commitUser = commitUser;
        this.snapshots = table.snapshotManager();
        this.lists = table.manifestList();
    }

    /**
     * Publishes {@code messages}: those that only add files as one APPEND snapshot, then those that
     * replace files (compactions) as one COMPACT snapshot, both with {@code identifier}. The APPEND
     * snapshot comes first, so a compaction may replace files added in the same commit, and every
     * new row is in an APPEND snapshot.
     *
     * @return the id of the last new snapshot, or empty if the messages hold no change
     */
    public OptionalLong commit(long identifier, List<CommitMessage> messages) {
        List<ManifestEntry> appends =
                entries(messages.stream().filter(m -> m.deletedFiles().isEmpty()).toList());
        List<ManifestEntry> compactions =
                entries(messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList());
        OptionalLong last = OptionalLong.empty();
        if (!appends.isEmpty()) {
            last = OptionalLong.of(tryCommit(identifier, appends, CommitKind.APPEND, null));
        }
        if (!compactions.isEmpty()) {
            last = OptionalLong.of(tryCommit(identifier, compactions, CommitKind.COMPACT, null));
        }
        return last;
    }

    /**
     * Replaces the rows of the partitions {@code scope} selects with {@code messages}' files, as
     * one OVERWRITE snapshot. The files to delete are chosen again from the latest snapshot on
     * every attempt, so a concurrent append into an overwritten partition is replaced too.
     */
    public long overwrite(
            long identifier, List<CommitMessage> messages, Predicate<Partition> scope) {
        return tryCommit(identifier, entries(messages), CommitKind.OVERWRITE, scope);
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
        Snapshot.Commit last = lastCommitOfUser(sinceMillis);
        if (last == null || last.identifier() < identifier) {
            commit(identifier, messages);
            return true;
        }
        List<ManifestEntry> compactions =
                entries(messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList());
        if (last.identifier() > identifier
                || last.kind() != CommitKind.APPEND
                || compactions.isEmpty()) {
            return false;
        }
        tryCommit(identifier, compactions, CommitKind.COMPACT, null);
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
        }
    }

    private static List<ManifestEntry> entries(List<CommitMessage> messages) {
        List<ManifestEntry> entries = new ArrayList<>();
        for (CommitMessage m : messages) {
            for (DataFile f : m.deletedFiles()) {
                entries.add(
                        new ManifestEntry(
                                FileKind.DELETE, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFile f : m.newFiles()) {
                entries.add(
                        new ManifestEntry(
                                FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
        }
        return entries;
    }

    private long tryCommit(
            long identifier,
            List<ManifestEntry> changes,
            CommitKind kind,
            @Nullable Predicate<Partition> overwriteScope) {
        int maxRetries = table.config().commit().maxRetries();
        long waitMillis = Math.max(1, table.config().commit().retryWait().toMillis());
        ManifestFileMeta appendManifest = null;
        try {
            for (int attempt = 0; ; attempt++) {
                OptionalLong latestId = snapshots.latestId();
                Snapshot latest =
                        latestId.isPresent() ? snapshots.snapshot(latestId.getAsLong()) : null;
                List<ManifestEntry> delta = new ArrayList<>();
                if (overwriteScope != null || hasDeletes(changes)) {
                    Map<ManifestEntry.FileId, ManifestEntry> live =
                            latest == null
                                    ? Map.of()
                                    : LiveFiles.of(lists, table.manifestFile(), latest);
                    checkDeletesAreLive(changes, live, latest);
                    if (overwriteScope != null) {
                        for (ManifestEntry e : live.values()) {
                            if (overwriteScope.test(e.partition())) {
                                delete(delta, e);
                            }
                        }
                    }
                }
                delta.addAll(changes);
                CommitAttempt written = new CommitAttempt(table);
                try {
                    ManifestFileMeta manifest;
                    if (overwriteScope == null && !hasDeletes(changes)) {
                        // Appends do not depend on the latest snapshot: write their manifest once.
                        if (appendManifest == null) {
                            appendManifest = table.manifestFile().write(delta, table.schema().id());
                        }
                        manifest = appendManifest;
                    } else {
                        manifest = written.writeManifest(delta);
                    }
                    List<ManifestFileMeta> base =
                            latest == null
                                    ? List.of()
                                    : written.mergeBase(LiveFiles.manifestsOf(lists, latest));
                    String baseList = written.writeList(base);
                    String deltaList = written.writeList(List.of(manifest));
                    long id = latest == null ? 1 : latest.id() + 1;
                    Snapshot snapshot =
                            new Snapshot(
                                    id,
                                    table.schema().id(),
                                    baseList,
                                    deltaList,
                                    new Snapshot.Commit(
                                            commitUser,
                                            identifier,
                                            kind,
                                            System.currentTimeMillis(),
                                            null),
                                    records(latest, delta));
                    boolean created;
                    try {
                        created = snapshots.tryCommit(snapshot);
                    } catch (IOException | RuntimeException e) {
                        // Whatever failed, the file may exist: the caller must keep every file.
                        throw new CommitStateUnknownException(
                                String.format(
                                        "Cannot tell whether snapshot %d of table %s was committed: %s",
                                        id, table.name(), e.getMessage()),
                                e);
                    }
                    if (created) {
                        return id;
                    }
                } catch (CommitStateUnknownException e) {
                    throw e; // The snapshot may reference what this attempt wrote.
                } catch (IOException e) {
                    written.cleanUp();
                    throw new UncheckedIOException(
                            "Cannot commit to table " + table.name() + ": " + e.getMessage(), e);
                } catch (RuntimeException e) {
                    written.cleanUp();
                    throw e;
                }
                written.cleanUp();
                if (attempt >= maxRetries) {
                    throw new CommitConflictException(
                            String.format(
                                    "Cannot commit to table %s: lost the race for a new snapshot %d"
                                            + " times in a row (commit.max-retries = %d); other"
                                            + " writers commit too often",
                                    table.name(), attempt + 1, maxRetries));
                }
                sleep(waitMillis << Math.min(attempt, 6));
            }
        } catch (CommitStateUnknownException e) {
            // The snapshot may exist and reference the manifest: keep it.
            throw e;
        } catch (RuntimeException e) {
            // No snapshot references the append manifest: remove it with the failed commit.
            if (appendManifest != null) {
                table.manifestFile().delete(appendManifest.fileName());
            }
            throw e;
        }
    }

    private static boolean hasDeletes(List<ManifestEntry> changes) {
        return changes.stream().anyMatch(e -> e.kind() == FileKind.DELETE);
    }

    private void checkDeletesAreLive(
            List<ManifestEntry> changes,
            Map<ManifestEntry.FileId, ManifestEntry> live,
            @Nullable Snapshot latest) {
        for (ManifestEntry e : changes) {
            if (e.kind() == FileKind.DELETE && !live.containsKey(e.fileId())) {
                throw new CommitConflictException(
                        String.format(
                                "Cannot commit to table %s: file %s of partition %s bucket %d,"
                                        + " which this commit replaces, is no longer in the"
                                        + " table (snapshot %s); another writer rewrote it",
                                table.name(),
                                e.file().fileName(),
                                e.partition(),
                                e.bucket(),
                                latest == null ? "none" : latest.id()));
            }
        }
    }

    private static void delete(List<ManifestEntry> delta, ManifestEntry live) {
        delta.add(
                new ManifestEntry(
                        FileKind.DELETE,
                        live.partition(),
                        live.bucket(),
                        live.totalBuckets(),
                        live.file()));
    }

    private static Snapshot.RecordCounts records(
            @Nullable Snapshot latest, List<ManifestEntry> delta) {
        long change = 0;
        for (ManifestEntry e : delta) {
            change += e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
        }
        long total = (latest == null ? 0 : latest.records().total()) + change;
        return new Snapshot.RecordCounts(total, change);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis + ThreadLocalRandom.current().nextLong(millis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitConflictException("Interrupted while retrying a commit");
        }
    }
}
