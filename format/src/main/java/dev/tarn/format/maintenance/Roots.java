package dev.tarn.format.maintenance;

import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;

/**
 * What keeps files of a table alive: the snapshots whose files must stay (every snapshot file in
 * {@code snapshot/} today) and the consumers, which pin snapshots rather than files. Orphan cleanup
 * and the integrity check both start from here, so whatever else comes to keep snapshots (tags)
 * joins both by being added in {@link #gather}, the one place roots are gathered.
 *
 * @param snapshots the root snapshots, by id (tags may add snapshots with ids already present)
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
        // Tags: add the tag store's snapshots to `snapshots` here, e.g.
        // snapshots.addAll(tags.snapshots()), and both maintenance features keep and check them.
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
