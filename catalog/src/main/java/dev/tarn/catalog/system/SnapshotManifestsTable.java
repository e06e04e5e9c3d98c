package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.format.Table;
import dev.tarn.format.read.TableFiles.ListedFile;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$manifests} (named so as not to read as a manifest type itself): the manifests of the
 * snapshot a query reads (the latest unless time travel names another), those of its base first,
 * then those of its delta, as the manifest lists record them.
 */
final class SnapshotManifestsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("file_name", DataTypes.STRING().notNull()),
                    field("file_size", DataTypes.BIGINT().notNull()),
                    field("num_added_files", DataTypes.BIGINT().notNull()),
                    field("num_deleted_files", DataTypes.BIGINT().notNull()),
                    field("schema_id", DataTypes.BIGINT().notNull()));

    static List<RowData> rows(Table table) {
        Snapshot snapshot = table.newScan().resolveSnapshot();
        List<RowData> rows = new ArrayList<>();
        if (snapshot == null) {
            return rows;
        }
        for (ListedFile m : table.metadata().files().manifests(snapshot)) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(m.fileName()),
                            m.fileSize(),
                            m.addedFiles(),
                            m.deletedFiles(),
                            m.schemaId()));
        }
        return rows;
    }

    private SnapshotManifestsTable() {}
}
