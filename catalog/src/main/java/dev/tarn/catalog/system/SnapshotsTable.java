package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;
import static dev.tarn.catalog.system.SystemTableValues.timestamp;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.read.TableFiles;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$snapshots}: one row per snapshot the table still has, oldest first, with what its
 * snapshot file records. {@code changelog_record_count} is the rows of the changelog files the
 * snapshot stored (null if it stored none), read from its changelog manifests: with before-image
 * files, a row per previous row its changes replace, delete or rewrite unchanged.
 */
final class SnapshotsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("snapshot_id", DataTypes.BIGINT().notNull()),
                    field("schema_id", DataTypes.BIGINT().notNull()),
                    field("commit_user", DataTypes.STRING().notNull()),
                    field("commit_identifier", DataTypes.BIGINT().notNull()),
                    field("commit_kind", DataTypes.STRING().notNull()),
                    field("commit_time", SystemTableValues.time().notNull()),
                    field("base_manifest_list", DataTypes.STRING().notNull()),
                    field("delta_manifest_list", DataTypes.STRING().notNull()),
                    field("changelog_manifest_list", DataTypes.STRING()),
                    field("total_record_count", DataTypes.BIGINT()),
                    field("delta_record_count", DataTypes.BIGINT()),
                    field("changelog_record_count", DataTypes.BIGINT()),
                    field("watermark", DataTypes.BIGINT()));

    static List<RowData> rows(Table table) {
        TableMetadata metadata = table.metadata();
        TableFiles files = metadata.files();
        List<RowData> rows = new ArrayList<>();
        for (Snapshot snapshot : metadata.snapshots()) {
            rows.add(row(snapshot, files));
        }
        return rows;
    }

    private static RowData row(Snapshot s, TableFiles files) {
        Snapshot.Commit commit = s.commit();
        return GenericRowData.of(
                s.id(),
                s.schemaId(),
                StringData.fromString(commit.user()),
                commit.identifier(),
                StringData.fromString(commit.kind().name()),
                timestamp(commit.timeMillis()),
                StringData.fromString(s.baseManifestList()),
                StringData.fromString(s.deltaManifestList()),
                StringData.fromString(s.changelogManifestList()),
                s.records().total(),
                s.records().delta(),
                files.changelogRecords(s),
                commit.watermark());
    }

    private SnapshotsTable() {}
}
