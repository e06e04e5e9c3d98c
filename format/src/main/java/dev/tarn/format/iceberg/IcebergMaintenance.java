package dev.tarn.format.iceberg;

import dev.tarn.format.schema.IcebergOptions;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;
import org.apache.iceberg.TableMetadata;

/**
 * Keeps a table's Iceberg metadata in step with maintenance that changes which snapshot is the
 * latest without a commit (SPEC.md, "Iceberg metadata"). Run by the maintenance package.
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
                TableMetadata whole =
                        new IcebergSnapshots(iceberg)
                                .build(
                                        null,
                                        snapshot,
                                        table.snapshotReader().liveFiles(snapshot),
                                        List.of(),
                                        table.snapshotReader().vectors(snapshot),
                                        false);
                iceberg.write(snapshotId, whole);
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
}
