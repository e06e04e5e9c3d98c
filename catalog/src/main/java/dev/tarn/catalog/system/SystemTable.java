package dev.tarn.catalog.system;

import dev.tarn.connector.source.TarnAuditLogTableSource;
import dev.tarn.format.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The system tables of a Tarn table, read as {@code <table>$<name>} (README, "System tables"). Each
 * is read-only and computed on read: a metadata table from the table's metadata when the query is
 * planned, the audit log by the table's own read. Names and columns follow Apache Paimon's tables
 * of the same concept, so users move between the two ({@code deletion_vectors} and {@code health}
 * are Tarn's own: see {@link DeletionVectorsTable}, {@link HealthTable}).
 */
enum SystemTable {
    SNAPSHOTS("snapshots", SnapshotsTable.TYPE, SnapshotsTable::rows),
    SCHEMAS("schemas", SchemasTable.TYPE, SchemasTable::rows),
    OPTIONS("options", OptionsTable.TYPE, OptionsTable::rows),
    FILES("files", FilesTable.TYPE, FilesTable::rows),
    MANIFESTS("manifests", SnapshotManifestsTable.TYPE, SnapshotManifestsTable::rows),
    PARTITIONS("partitions", PartitionsTable.TYPE, PartitionsTable::rows),
    BUCKETS("buckets", BucketsTable.TYPE, BucketsTable::rows),
    CONSUMERS("consumers", ConsumersTable.TYPE, ConsumersTable::rows),
    TAGS("tags", TagsTable.TYPE, TagsTable::rows),
    DELETION_VECTORS("deletion_vectors", DeletionVectorsTable.TYPE, DeletionVectorsTable::rows),
    HEALTH("health", HealthTable.TYPE, HealthTable::rows),
    /** Every row of the table with its row kind; its columns are the table's, so no fixed type. */
    AUDIT_LOG(TarnAuditLogTableSource.NAME, null, null);

    /** Separates a table's name from its system table's: {@code orders$snapshots}. */
    static final char SEPARATOR = '$';

    private final String tableName;
    @Nullable private final RowType type;
    @Nullable private final Function<Table, List<RowData>> rows;

    SystemTable(
            String tableName,
            @Nullable RowType type,
            @Nullable Function<Table, List<RowData>> rows) {
        this.tableName = tableName;
        this.type = type;
        this.rows = rows;
    }

    /** The name after {@value #SEPARATOR}, e.g. {@code snapshots}. */
    String tableName() {
        return tableName;
    }

    /** The system table called {@code name} (case-insensitive), if there is one. */
    static Optional<SystemTable> named(String name) {
        return Arrays.stream(values()).filter(t -> t.tableName.equalsIgnoreCase(name)).findFirst();
    }

    /** Every system table's name, for messages. */
    static List<String> names() {
        return Arrays.stream(values()).map(SystemTable::tableName).toList();
    }

    /** The columns of this system table of {@code table}. */
    RowType rowType(Table table) {
        if (type != null) {
            return type;
        }
        List<RowType.RowField> fields = new ArrayList<>();
        fields.add(
                new RowType.RowField(
                        TarnAuditLogTableSource.ROW_KIND_COLUMN,
                        new VarCharType(false, VarCharType.MAX_LENGTH),
                        "The row's kind: +I, -U, +U or -D"));
        fields.addAll(table.schema().rowType().getFields());
        return new RowType(false, fields);
    }

    /**
     * The rows of this metadata table of {@code table}, computed now.
     *
     * @throws IllegalArgumentException for the audit log, which the connector reads itself
     */
    List<RowData> rows(Table table) {
        if (rows == null) {
            throw new IllegalArgumentException(
                    "System table " + tableName + " of " + table.name() + " has no metadata rows");
        }
        return rows.apply(table);
    }
}
