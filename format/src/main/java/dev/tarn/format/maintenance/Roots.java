package dev.tarn.format.maintenance;

import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.core.fs.FileStatus;

/**
 * What keeps files of a table alive: the snapshots whose files must stay (every snapshot file in
 * {@code snapshot/}, and the snapshot of every tag) and the consumers, which pin snapshots rather
 * than files. Orphan cleanup and the integrity check both start from here, {@link #gather} being
 * the one place roots are gathered.
 *
 * @param snapshots the root snapshots, by id
 * @param unreadable snapshot files that exist but do not parse: what they reference is unknown
 */
record Roots(
        List<Snapshot> snapshots, List<Consumers.Consumer> consumers, List<Unreadable> unreadable) {

    private static final String SNAPSHOT_PREFIX = "snapshot-";

    /** A metadata file that exists but cannot be read, and why. */
    record Unreadable(String file, String problem) {}

    /**
     * Reads the roots of {@code table} now. A snapshot file that vanishes between listing and
     * reading (expired meanwhile) is no root.
     */
    static Roots gather(TableContext table) {
        List<Snapshot> snapshots = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        readSnapshots(table, snapshots, unreadable);
        readTags(table, snapshots, unreadable);
        snapshots.sort(Comparator.comparingLong(Snapshot::id));
        try {
            return new Roots(
                    List.copyOf(snapshots),
                    new Consumers(table.io(), table.paths(), table.name()).all(),
                    List.copyOf(unreadable));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read the consumers of table " + table.name() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Adds the snapshot of every tag that is not a snapshot file any more (expired; a tag on a
     * snapshot that exists is that snapshot, since a rollback never passes a tag).
     */
    private static void readTags(
            TableContext table, List<Snapshot> snapshots, List<Unreadable> unreadable) {
        Set<Long> present = new HashSet<>();
        snapshots.forEach(s -> present.add(s.id()));
        try {
            for (Tags.Tag tag : table.tags().list()) {
                if (present.add(tag.snapshot().id())) {
                    snapshots.add(tag.snapshot());
                }
            }
        } catch (IllegalArgumentException e) {
            unreadable.add(new Unreadable(table.paths().tagDir().getName() + "/", e.getMessage()));
        }
    }

    private static void readSnapshots(
            TableContext table, List<Snapshot> snapshots, List<Unreadable> unreadable) {
        // A manager of its own, so every snapshot is read from its file, not a cached copy.
        SnapshotManager manager =
                new SnapshotManager(table.io(), table.paths(), table.name(), table.publisher());
        FileStatus[] files;
        try {
            files = table.io().list(manager.directory());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list the snapshots of table " + table.name() + ": " + e.getMessage(),
                    e);
        }
        for (FileStatus status : files) {
            String name = status.getPath().getName();
            if (!name.startsWith(SNAPSHOT_PREFIX)) {
                continue;
            }
            long id;
            try {
                id = Long.parseLong(name.substring(SNAPSHOT_PREFIX.length()));
            } catch (NumberFormatException notASnapshot) {
                continue;
            }
            try {
                snapshots.add(manager.snapshot(id));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                if (manager.exists(id)) {
                    unreadable.add(new Unreadable(manager.path(id).toString(), e.getMessage()));
                }
            }
        }
    }
}
