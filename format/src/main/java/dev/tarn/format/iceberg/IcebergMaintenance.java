package dev.tarn.format.iceberg;

import dev.tarn.format.schema.IcebergOptions;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Keeps a table's Iceberg metadata in step with maintenance (SPEC.md, "Iceberg metadata"): a
 * rollback, which changes the latest snapshot without a commit, and an expiration, whose removed
 * snapshots leave the Iceberg side too. Run by the maintenance package.
 */
public final class IcebergMaintenance {

    private IcebergMaintenance() {}

    /**
     * After a rollback to {@code snapshotId}: points the version hint at that snapshot's Iceberg
     * metadata (written whole first if it is missing or stale) and deletes the versions after it,
     * so Iceberg readers read what Tarn readers read.
     *
     * @throws java.io.UncheckedIOException naming the file if the metadata cannot be written
     */
    public static void afterRollback(TableContext table, long snapshotId) {
        if (table.config().iceberg() == IcebergOptions.Storage.DISABLED) {
            return;
        }
        IcebergTable iceberg = new IcebergTable(table);
        Snapshot snapshot = table.snapshotManager().snapshot(snapshotId);
        try {
            if (iceberg.readFor(snapshot) == null) {
                iceberg.write(snapshotId, new IcebergSnapshots(iceberg).whole(snapshot));
            }
            iceberg.writeHint(snapshotId);
            for (FileStatus file : iceberg.list()) {
                if (IcebergTable.version(file.getPath().getName()) > snapshotId) {
                    table.io().delete(file.getPath(), false);
                }
            }
        } catch (IOException e) {
            throw iceberg.failure("write", iceberg.directory(), e);
        }
    }

    /**
     * After an expiration removed every Tarn snapshot before {@code firstKept}: rewrites the
     * Iceberg metadata the version hint names without the Iceberg snapshots of those (in place: the
     * version stays the Tarn snapshot's id), then deletes what only they named: their manifest
     * lists, the manifests that the oldest snapshot kept does not name (a manifest is named by a
     * contiguous run of snapshots, as Tarn's are), and their {@code v<N>.metadata.json}. Run again
     * after a crash, it finishes the work; files already gone are skipped.
     *
     * @return the number of files deleted
     * @throws java.io.UncheckedIOException naming the file if the metadata cannot be rewritten
     */
    public static int afterExpire(TableContext table, long firstKept) {
        if (table.config().iceberg() == IcebergOptions.Storage.DISABLED) {
            return 0;
        }
        IcebergTable iceberg = new IcebergTable(table);
        Set<Path> doomed = new LinkedHashSet<>();
        try {
            OptionalLong hint = iceberg.hint();
            TableMetadata current =
                    hint.isPresent() ? iceberg.readDetached(hint.getAsLong()) : null;
            List<Long> expired =
                    current == null ? List.of() : IcebergTable.expiredSnapshots(current, firstKept);
            if (!expired.isEmpty()) {
                TableMetadata trimmed =
                        TableMetadata.buildFrom(current).removeSnapshots(expired).build();
                iceberg.write(hint.getAsLong(), trimmed);
                Set<String> kept = manifests(iceberg, oldest(trimmed));
                for (long id : expired) {
                    org.apache.iceberg.Snapshot gone = current.snapshot(id);
                    for (String manifest : manifests(iceberg, gone)) {
                        if (!kept.contains(manifest)) {
                            doomed.add(new Path(manifest));
                        }
                    }
                    doomed.add(new Path(gone.manifestListLocation()));
                }
            }
            for (FileStatus file : iceberg.list()) {
                long version = IcebergTable.version(file.getPath().getName());
                if (version >= 0 && version < firstKept) {
                    doomed.add(file.getPath());
                }
            }
            for (Path path : doomed) {
                table.io().deleteIfExists(path);
            }
        } catch (IOException e) {
            throw iceberg.failure("expire", iceberg.directory(), e);
        }
        return doomed.size();
    }

    /**
     * The Iceberg files in {@code metadata/} that readers may still open, for orphan cleanup: the
     * version hint, the {@code v<N>.metadata.json} of every Tarn snapshot from {@code
     * earliestSnapshot} on, and the manifest lists and manifests of every snapshot the hinted
     * metadata names. Empty if the table has no Iceberg metadata (its {@code metadata/} is then not
     * a candidate either).
     *
     * @throws IllegalStateException naming the file if the hinted metadata or a manifest list
     *     cannot be read: what it references is unknown
     */
    public static Set<Path> referenced(TableContext table, long earliestSnapshot) {
        Set<Path> named = new HashSet<>();
        if (table.config().iceberg() == IcebergOptions.Storage.DISABLED) {
            return named;
        }
        IcebergTable iceberg = new IcebergTable(table);
        named.add(iceberg.hintPath());
        for (FileStatus file : iceberg.list()) {
            if (IcebergTable.version(file.getPath().getName()) >= earliestSnapshot) {
                named.add(file.getPath());
            }
        }
        OptionalLong hint = iceberg.hint();
        if (hint.isEmpty()) {
            return named;
        }
        try {
            TableMetadata current = iceberg.read(hint.getAsLong());
            if (current == null) {
                return named;
            }
            for (org.apache.iceberg.Snapshot s : current.snapshots()) {
                named.add(new Path(s.manifestListLocation()));
                for (ManifestFile m : s.allManifests(iceberg.io())) {
                    named.add(new Path(m.path()));
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot remove orphan files of table %s: its Iceberg metadata (version"
                                    + " %d) cannot be read, so which files in %s it references is"
                                    + " unknown and nothing was removed (%s)",
                            table.name(), hint.getAsLong(), iceberg.directory(), e.getMessage()),
                    e);
        }
        return named;
    }

    @Nullable
    private static org.apache.iceberg.Snapshot oldest(TableMetadata metadata) {
        org.apache.iceberg.Snapshot oldest = null;
        for (org.apache.iceberg.Snapshot s : metadata.snapshots()) {
            if (oldest == null || s.snapshotId() < oldest.snapshotId()) {
                oldest = s;
            }
        }
        return oldest;
    }

    /** The manifests {@code snapshot}'s list names; none if it is null or its list is gone. */
    private static Set<String> manifests(
            IcebergTable iceberg, @Nullable org.apache.iceberg.Snapshot snapshot) {
        Set<String> paths = new HashSet<>();
        if (snapshot == null) {
            return paths;
        }
        try {
            for (ManifestFile m : snapshot.allManifests(iceberg.io())) {
                paths.add(m.path());
            }
        } catch (NotFoundException e) {
            // Deleted by an earlier run that a crash cut short.
        }
        return paths;
    }
}
