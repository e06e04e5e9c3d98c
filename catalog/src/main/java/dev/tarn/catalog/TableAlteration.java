package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;

/**
 * Translates an {@code ALTER TABLE} into the format's {@link SchemaChange}s, which {@link
 * Table#alter} applies with every rule (field ids kept, so data files stay readable; once a table
 * has a snapshot, options fixed at creation such as {@code bucket} or {@code merge-engine} stay).
 * Columns change through Flink's column {@link TableChange}s ({@link ColumnChanges}: added,
 * dropped, renamed, moved, widened, commented); options, the table comment, the watermark and the
 * computed columns are taken from the requested table. Keys and partitioning stay as they are.
 */
final class TableAlteration {

    /**
     * The column changes among {@code changes}, in order, as the format's; rejects every change but
     * those, SET/RESET of options, a new table comment and the watermark.
     */
    static List<SchemaChange> columnChanges(
            String table, List<TableChange> changes, TableSchema current) {
        Set<String> computed = new HashSet<>();
        current.computedColumns().forEach(c -> computed.add(c.name()));
        List<SchemaChange> columns = new ArrayList<>();
        for (TableChange change : changes) {
            if (ColumnChanges.ofComputed(change, computed)) {
                continue; // The requested table's computed columns are taken whole.
            }
            SchemaChange column = ColumnChanges.of(table, change);
            if (column != null) {
                columns.add(column);
                continue;
            }
            boolean supported =
                    change instanceof TableChange.SetOption
                            || change instanceof TableChange.ResetOption
                            || change instanceof TableChange.ModifyTableComment
                            || change instanceof TableChange.AddWatermark
                            || change instanceof TableChange.ModifyWatermark
                            || change instanceof TableChange.DropWatermark;
            if (!supported) {
                throw new CatalogException(
                        String.format(
                                "Cannot alter table %s: %s is not supported yet; only ALTER TABLE"
                                        + " ... SET/RESET of options, a new comment, ADD, DROP,"
                                        + " RENAME or MODIFY of physical columns and ADD, MODIFY"
                                        + " or DROP WATERMARK are",
                                table, change));
            }
        }
        return columns;
    }

    /**
     * The format's changes that make {@code table} what {@code requested}, Flink's table after the
     * ALTER, declares: {@code columns} first (from {@link #columnChanges}), then each option, the
     * comment, the watermark and the computed columns that differ from the table's. The format
     * checks them ({@link Table#alter}); here only what Flink can declare but a Tarn table cannot
     * hold is refused.
     *
     * @throws CatalogException naming the table and what may not change: without column changes,
     *     {@code requested}'s columns, primary key and partitioning must be the table's
     */
    static List<SchemaChange> changes(
            Table table, ResolvedCatalogTable requested, List<SchemaChange> columns) {
        String name = table.name();
        TableSchema current = table.schema();
        // What the requested table declares, read as CREATE TABLE reads it (not a next schema:
        // the format builds that from the changes).
        TableSchema declared =
                CatalogTables.toSchema("alter", name, requested, table.location().toString());
        boolean sameShape =
                declared.rowType().equals(current.rowType())
                        && declared.partitionKeys().equals(current.partitionKeys())
                        && declared.primaryKeys().equals(current.primaryKeys());
        // With column changes, Flink derived the requested columns from them.
        if (columns.isEmpty() && !sameShape) {
            throw new CatalogException(
                    String.format(
                            "Cannot alter table %s: changing columns, primary key or partitioning"
                                    + " is not supported yet (current %s, requested %s); only"
                                    + " options and the comment may change",
                            name, describe(current), describe(declared)));
        }
        List<SchemaChange> all = new ArrayList<>(columns);
        Set<String> keys = new TreeSet<>(current.options().keySet());
        keys.addAll(declared.options().keySet());
        for (String key : keys) {
            String value = declared.options().get(key);
            if (value == null) {
                all.add(new SchemaChange.RemoveOption(key));
            } else if (!value.equals(current.options().get(key))) {
                all.add(new SchemaChange.SetOption(key, value));
            }
        }
        if (!Objects.equals(declared.comment(), current.comment())) {
            all.add(new SchemaChange.UpdateComment(declared.comment()));
        }
        if (!Objects.equals(declared.watermark(), current.watermark())) {
            all.add(
                    declared.watermark() == null
                            ? new SchemaChange.DropWatermark()
                            : new SchemaChange.SetWatermark(declared.watermark()));
        }
        if (!declared.computedColumns().equals(current.computedColumns())) {
            all.add(new SchemaChange.SetComputedColumns(declared.computedColumns()));
        }
        return all;
    }

    private static String describe(TableSchema schema) {
        return schema.rowType().asSummaryString()
                + " PRIMARY KEY "
                + schema.primaryKeys()
                + " PARTITIONED BY "
                + schema.partitionKeys();
    }

    private TableAlteration() {}
}
