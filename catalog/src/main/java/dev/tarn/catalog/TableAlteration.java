package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;

/**
 * Turns an {@code ALTER TABLE} into the table's next schema version. Options, the table comment and
 * the watermark may change, and columns through Flink's column {@link TableChange}s, which become
 * the format's {@link SchemaChange}s (added, dropped, renamed, moved, widened, commented; field ids
 * kept, so data files stay readable); keys and partitioning stay as they are. The format checks the
 * new options ({@link Table#checkNextSchema}): once a table has a snapshot, options fixed at
 * creation ({@code bucket}, {@code bucket-key}, {@code merge-engine}, ...) may not change.
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
     * The schema {@code table} has after becoming {@code requested}, or empty if nothing changes.
     *
     * @throws CatalogException naming the table and what may not change
     * @throws IllegalArgumentException from the format if a new option is unknown or invalid, or
     *     may not change
     */
    static Optional<TableSchema> nextSchema(Table table, ResolvedCatalogTable requested) {
        return nextSchema(table, requested, List.of());
    }

    /**
     * As {@link #nextSchema(Table, ResolvedCatalogTable)}, with the columns changed by {@code
     * columns} first.
     *
     * @throws IllegalArgumentException from the format, naming the column and the reason, if a
     *     column change is not allowed
     */
    static Optional<TableSchema> nextSchema(
            Table table, ResolvedCatalogTable requested, List<SchemaChange> columns) {
        String name = table.name();
        TableSchema current =
                columns.isEmpty()
                        ? table.schema()
                        : SchemaChange.apply(name, table.schema(), columns);
        TableSchema proposed =
                CatalogTables.toSchema("alter", name, requested, table.location().toString());
        boolean sameShape =
                proposed.rowType().equals(current.rowType())
                        && proposed.partitionKeys().equals(current.partitionKeys())
                        && proposed.primaryKeys().equals(current.primaryKeys());
        if (!sameShape) {
            throw new CatalogException(
                    String.format(
                            "Cannot alter table %s: changing columns, primary key or partitioning"
                                    + " is not supported yet (current %s, requested %s); only"
                                    + " options and the comment may change",
                            name, describe(current), describe(proposed)));
        }
        for (ConfigOption<?> option : TableOptions.queryOnly()) {
            if (proposed.options().containsKey(option.key())) {
                throw new CatalogException(
                        String.format(
                                "Cannot alter table %s: option '%s' applies to one query; give it"
                                        + " as a hint (/*+ OPTIONS(...) */), not in ALTER TABLE",
                                name, option.key()));
            }
        }
        if (columns.isEmpty()
                && proposed.options().equals(current.options())
                && Objects.equals(proposed.comment(), current.comment())
                && Objects.equals(proposed.watermark(), current.watermark())
                && proposed.computedColumns().equals(current.computedColumns())) {
            return Optional.empty();
        }
        // The requested options, with the column changes' own changes to them (a renamed or
        // dropped column's default moves or goes with it).
        Map<String, String> options = new HashMap<>(proposed.options());
        table.schema().options().keySet().stream()
                .filter(k -> !current.options().containsKey(k))
                .forEach(options::remove);
        current.options()
                .forEach(
                        (k, v) -> {
                            if (!v.equals(table.schema().options().get(k))) {
                                options.put(k, v);
                            }
                        });
        TableSchema next =
                new TableSchema(
                        table.schema().id() + 1,
                        current.fields(),
                        current.partitionKeys(),
                        current.primaryKeys(),
                        options,
                        proposed.comment(),
                        proposed.watermark(),
                        proposed.computedColumns(),
                        current.highestFieldId());
        table.checkNextSchema(next);
        return Optional.of(next);
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
