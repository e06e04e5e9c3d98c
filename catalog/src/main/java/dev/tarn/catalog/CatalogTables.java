package dev.tarn.catalog;

import dev.tarn.connector.TarnConnectorOptions;
import dev.tarn.connector.TarnDynamicTableFactory;
import dev.tarn.format.Table;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * Converts between Flink's catalog tables and Tarn schemas. A Tarn table stores physical columns, a
 * primary key, partition keys, options, a comment and a watermark declaration (on a physical
 * column, its expression as Flink SQL text); anything else Flink can declare is rejected by name
 * rather than silently dropped. The keys {@code connector} and {@code path} are never stored, nor
 * shown to Flink: the catalog's connector finds each table by its name.
 */
final class CatalogTables {

    /** The option that tells the connector where a table outside a catalog lives. */
    private static final String PATH = TarnConnectorOptions.PATH.key();

    /** Flink's connector option; a catalog table always uses this catalog's connector. */
    private static final String CONNECTOR = FactoryUtil.CONNECTOR.key();

    /**
     * Schema 0 of {@code table} as Flink declares it.
     *
     * @param action what is being done, for messages: "create" or "alter"
     * @param location the table's location if it exists (a {@code path} option must equal it)
     */
    static TableSchema toSchema(
            String action, String name, ResolvedCatalogTable table, @Nullable String location) {
        ResolvedSchema resolved = table.getResolvedSchema();
        List<TableSchema.ComputedColumn> computed = new ArrayList<>();
        List<String> physicalComments = new ArrayList<>();
        for (int i = 0; i < resolved.getColumns().size(); i++) {
            Column column = resolved.getColumns().get(i);
            if (column instanceof Column.ComputedColumn c) {
                computed.add(
                        new TableSchema.ComputedColumn(
                                c.getName(),
                                c.getExpression().asSerializableString(),
                                i,
                                c.getComment().orElse(null)));
            } else if (!column.isPhysical()) {
                unsupported(action, name, "column " + column.asSummaryString(), "metadata");
            } else {
                physicalComments.add(column.getComment().orElse(null));
            }
        }
        if (!resolved.getIndexes().isEmpty()) {
            unsupported(
                    action,
                    name,
                    "index " + resolved.getIndexes().get(0).asSummaryString(),
                    "index");
        }
        if (resolved.getImmutableColumns().isPresent()) {
            unsupported(
                    action,
                    name,
                    resolved.getImmutableColumns().get().asSummaryString(),
                    "constraint");
        }
        if (table.getDistribution().isPresent()) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s table %s: DISTRIBUTED BY (%s) is not supported; use"
                                    + " WITH ('bucket' = '<n>', 'bucket-key' = '<columns>')",
                            action, name, table.getDistribution().get()));
        }
        RowType rowType = (RowType) resolved.toPhysicalRowDataType().getLogicalType();
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            RowType.RowField f = rowType.getFields().get(i);
            fields.add(new RowType.RowField(f.getName(), f.getType(), physicalComments.get(i)));
        }
        List<String> primaryKey =
                resolved.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        return TableSchema.create(
                new RowType(false, fields),
                table.getPartitionKeys(),
                primaryKey,
                storedOptions(name, table.getOptions(), location),
                table.getComment() == null || table.getComment().isEmpty()
                        ? null
                        : table.getComment(),
                watermark(action, name, resolved),
                computed);
    }

    /**
     * The table's watermark declaration as stored: its column and its expression as SQL text that
     * Flink parses again when the table is read ({@code SOURCE_WATERMARK()} included).
     */
    @Nullable
    private static TableSchema.WatermarkSpec watermark(
            String action, String name, ResolvedSchema resolved) {
        if (resolved.getWatermarkSpecs().isEmpty()) {
            return null;
        }
        WatermarkSpec spec = resolved.getWatermarkSpecs().get(0);
        if (resolved.getColumn(spec.getRowtimeAttribute()).isEmpty()) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s table %s: %s is not supported; the watermark's column must"
                                    + " be a top-level column",
                            action, name, spec.asSummaryString()));
        }
        return new TableSchema.WatermarkSpec(
                spec.getRowtimeAttribute(), spec.getWatermarkExpression().asSerializableString());
    }

    private static void unsupported(String action, String table, String what, String kind) {
        throw new CatalogException(
                String.format(
                        "Cannot %s table %s: %s is not supported; a Tarn table has physical"
                                + " and computed columns only, without %s definitions",
                        action, table, what, kind));
    }

    /**
     * The options of {@code given} a table may store: without {@code connector} (which must be
     * {@value TarnDynamicTableFactory#IDENTIFIER} if given) and without {@code path} (which must be
     * {@code location} if given; a new table's given path is dropped before, by {@link
     * #withoutGivenPath}).
     */
    static Map<String, String> storedOptions(
            String table, Map<String, String> given, @Nullable String location) {
        Map<String, String> stored = new HashMap<>(given);
        String connector = stored.remove(CONNECTOR);
        if (connector != null && !connector.equals(TarnDynamicTableFactory.IDENTIFIER)) {
            throw new CatalogException(
                    String.format(
                            "Invalid option 'connector' = '%s' of table %s: a Tarn catalog holds"
                                    + " only Tarn tables; remove the option, or create the table"
                                    + " in another catalog",
                            connector, table));
        }
        String path = stored.remove(PATH);
        if (path != null && !path.equals(location)) {
            throw new CatalogException(
                    String.format(
                            "Invalid option 'path' = '%s' of table %s: the catalog places each"
                                    + " table in its warehouse%s; remove the option",
                            path, table, location == null ? "" : " (here " + location + ")"));
        }
        return stored;
    }

    /**
     * The table as Flink sees it: its columns, keys and comment, and its stored options plus {@code
     * extraOptions} and {@code path}, its location, so that a {@code 'connector' = 'tarn'} table
     * declared {@code LIKE} it (to add a watermark, say) reads it.
     */
    static CatalogTable toCatalogTable(Table table, Map<String, String> extraOptions) {
        TableSchema schema = table.schema();
        Schema.Builder builder = Schema.newBuilder();
        List<TableSchema.ComputedColumn> computed =
                schema.computedColumns().stream()
                        .sorted(Comparator.comparingInt(TableSchema.ComputedColumn::position))
                        .toList();
        int next = 0;
        int placed = 0; // columns put so far, physical and computed
        for (DataField field : schema.fields()) {
            while (next < computed.size() && computed.get(next).position() <= placed) {
                computedColumn(builder, computed.get(next++));
                placed++;
            }
            builder.column(field.name(), TypeConversions.fromLogicalToDataType(field.type()));
            placed++;
            if (field.description() != null) {
                builder.withComment(field.description());
            }
        }
        while (next < computed.size()) {
            computedColumn(builder, computed.get(next++));
        }
        if (!schema.primaryKeys().isEmpty()) {
            builder.primaryKey(schema.primaryKeys());
        }
        if (schema.watermark() != null) {
            builder.watermark(schema.watermark().rowtime(), schema.watermark().expression());
        }
        Map<String, String> options = new HashMap<>(schema.options());
        options.putAll(extraOptions);
        options.put(PATH, table.location().toString());
        return CatalogTable.newBuilder()
                .schema(builder.build())
                .partitionKeys(schema.partitionKeys())
                .options(options)
                .comment(schema.comment())
                .build();
    }

    private static void computedColumn(Schema.Builder builder, TableSchema.ComputedColumn column) {
        builder.columnByExpression(column.name(), column.expression());
        if (column.comment() != null) {
            builder.withComment(column.comment());
        }
    }

    /**
     * {@code table} without its {@code path} option: a new table of the catalog goes where the
     * catalog places it by name, so a {@code path} that {@code SHOW CREATE TABLE} printed or {@code
     * CREATE TABLE ... LIKE} copied (from this warehouse or another) is ignored, as Apache Paimon
     * ignores it.
     */
    static ResolvedCatalogTable withoutGivenPath(ResolvedCatalogTable table) {
        if (!table.getOptions().containsKey(PATH)) {
            return table;
        }
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.remove(PATH);
        return table.copy(options);
    }

    /** {@code table} as a resolved table, or a message that only tables can be stored. */
    static ResolvedCatalogTable resolved(
            String action, String catalog, ObjectPath path, CatalogBaseTable table) {
        if (table.getTableKind() != CatalogBaseTable.TableKind.TABLE
                || !(table instanceof ResolvedCatalogTable)) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s %s in catalog %s: a Tarn catalog holds only tables, not a"
                                    + " %s",
                            action,
                            path.getFullName(),
                            catalog,
                            table.getTableKind().name().toLowerCase(Locale.ROOT)));
        }
        return (ResolvedCatalogTable) table;
    }

    private CatalogTables() {}
}
