package dev.tarn.format.maintenance;

import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Rolls a table back to an earlier snapshot (SPEC.md, "Rollback"): the later snapshots are removed
 * newest first, each followed by the files only it added, so that at every moment the table is a
 * consistent prefix of its history; a crash leaves at most one removed snapshot's files behind (for
 * orphan cleanup) and a rerun finishes. A tag's snapshot that expired is first restored from the
 * tag, below the snapshots that are there, where no reader looks until they are gone. The next
 * commit takes the id after the target. Writers must be stopped first: a running writer that sees
 * the table go back fails rather than commit on a history that is gone.
 */
final class Rollback {

    /** The files removing one snapshot deletes. */
    private record Removal(
            long id, Map<FileId, ManifestEntry> data, Set<String> index, Set<String> metadata) {}

    private final TableContext table;
    private final SnapshotManager snapshots;
    private final SnapshotFiles files;

    Rollback(TableContext table) {
        this.table = table;
        this.snapshots = table.snapshotManager();
        this.files = new SnapshotFiles(table);
    }

    SnapshotLifecycle.RollbackResult toSnapshot(long id) {
        if (!snapshots.exists(id)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot roll back table %s to snapshot %d: it does not exist; %s",
                            table.name(), id, history()));
        }
        return roll(snapshots.snapshot(id));
    }

    SnapshotLifecycle.RollbackResult toTag(String name) {
        Tag tag =
                table.tags()
                        .get(name)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                String.format(
                                                        "Cannot roll back table %s to tag '%s':"
                                                                + " no such tag",
                                                        table.name(), name)));
        return roll(tag.snapshot());
    }

    private SnapshotLifecycle.RollbackResult roll(Snapshot target) {
        long to = target.id();
        check(to);
        try {
            boolean restore = !snapshots.exists(to);
            long last = snapshots.latestId().orElse(to);
            List<Removal> removals = new ArrayList<>();
            Snapshot newer = null;
            for (long id = last; id > to && snapshots.exists(id); id--) {
                Snapshot snapshot = snapshots.snapshot(id);
                if (newer != null) {
                    removals.add(removal(newer, snapshot, false));
                }
                newer = snapshot;
            }
            boolean gap = newer != null && newer.id() > to + 1;
            if (newer != null) {
                removals.add(removal(newer, target, gap));
            }
            if (restore && !snapshots.restore(target)) {
                throw new IllegalStateException(
                        "Cannot restore snapshot "
                                + to
                                + " of table "
                                + table.name()
                                + ": another process created it meanwhile");
            }
            int dataFiles = 0;
            int indexFiles = 0;
            int metadataFiles = 0;
            for (Removal r : removals) {
                snapshots.delete(r.id());
                dataFiles += files.deleteData(r.data().values());
                indexFiles += files.deleteIndexFiles(r.index());
                metadataFiles += files.deleteMetadata(r.metadata());
            }
            snapshots.writeLatestHint(to);
            if (restore || gap) {
                snapshots.writeEarliestHint(to);
            }
            rewindConsumers(to + 1);
            return new SnapshotLifecycle.RollbackResult(
                    table.name(), to, removals.size(), dataFiles, indexFiles, metadataFiles);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot roll back table "
                            + table.name()
                            + " to snapshot "
                            + to
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * What removing {@code removed} deletes, given the snapshot below it that stays ({@code below},
     * the previous snapshot or the target). Across a gap (a restored target below), every file
     * {@code removed} holds but the target does not. Index files and index manifests: those {@code
     * removed} names and {@code below} does not (a vector once replaced never returns, so no
     * snapshot above names them either once those above are gone).
     */
    private Removal removal(Snapshot removed, Snapshot below, boolean gap) {
        Map<FileId, ManifestEntry> data;
        if (gap) {
            data = files.live(removed);
            data.keySet().removeAll(files.live(below).keySet());
        } else {
            data = SnapshotFiles.byFile(files.delta(removed, FileKind.ADD, false));
        }
        SnapshotFiles.addAll(data, files.changelog(removed, false));
        Set<String> index = new HashSet<>(files.indexFiles(removed, false));
        index.removeAll(files.indexFiles(below, false));
        Set<String> metadata = new HashSet<>(files.metadata(removed, false));
        metadata.removeAll(files.metadata(below, false));
        return new Removal(removed.id(), data, index, metadata);
    }

    /** Refuses a rollback that would break an unfinished expiration or a later tag. */
    private void check(long to) {
        OptionalLong pending = snapshots.expiringBefore();
        if (pending.isPresent()) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot roll back table %s to snapshot %d: an expiration of the"
                                    + " snapshots before %d is unfinished; expire snapshots"
                                    + " again to finish it first",
                            table.name(), to, pending.getAsLong()));
        }
        List<Tag> later = table.tags().list().stream().filter(t -> t.snapshot().id() > to).toList();
        if (!later.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot roll back table %s to snapshot %d: tags %s pin later"
                                    + " snapshots; delete them first",
                            table.name(),
                            to,
                            later.stream()
                                    .map(
                                            t ->
                                                    "'"
                                                            + t.name()
                                                            + "' (snapshot "
                                                            + t.snapshot().id()
                                                            + ")")
                                    .collect(Collectors.joining(", "))));
        }
    }

    /** Consumers that had read past the target start again after it. */
    private void rewindConsumers(long next) throws IOException {
        Consumers consumers = new Consumers(table.io(), table.paths(), table.name());
        for (Consumers.Consumer c : consumers.all()) {
            if (c.nextSnapshotId() > next) {
                consumers.record(c.id(), next, System.currentTimeMillis());
            }
        }
    }

    private String history() {
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong latest = snapshots.latestId();
        return earliest.isEmpty()
                ? "the table has no snapshot"
                : String.format(
                        "the table has snapshots %d to %d",
                        earliest.getAsLong(), latest.getAsLong());
    }
}
