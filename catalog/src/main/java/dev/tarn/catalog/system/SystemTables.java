package dev.tarn.catalog.system;

import dev.tarn.catalog.procedure.CatalogProcedures;
import dev.tarn.connector.MetadataRows;
import dev.tarn.connector.TarnConnectorOptions;
import dev.tarn.format.Table;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * How a catalog offers the {@link SystemTable}s of its tables: {@code db.t$snapshots} names system
 * table {@code snapshots} of table {@code db.t}. The catalog hands such a table to Flink with the
 * option {@link TarnConnectorOptions#SYSTEM_TABLE} and the table's {@code path}, and the connector
 * asks back here for the rows ({@link MetadataRows}). System tables are never listed and never
 * written: every change to one is refused by name.
 */
public final class SystemTables implements MetadataRows {

    /** Whether {@code path} names a system table (or a name only system tables may have). */
    public static boolean isSystemName(ObjectPath path) {
        return path.getObjectName().indexOf(SystemTable.SEPARATOR) >= 0;
    }

    /** The table a system-table name is of: {@code db.t} for {@code db.t$snapshots}. */
    public static ObjectPath baseTable(ObjectPath path) {
        String name = path.getObjectName();
        return new ObjectPath(
                path.getDatabaseName(), name.substring(0, name.indexOf(SystemTable.SEPARATOR)));
    }

    /** The name of the system table in a system-table name: {@code snapshots}. */
    static String systemName(ObjectPath path) {
        String name = path.getObjectName();
        return name.substring(name.indexOf(SystemTable.SEPARATOR) + 1);
    }

    /**
     * The system table {@code path} names.
     *
     * @throws TableNotExistException naming {@code path}, with a cause naming the known system
     *     tables, if there is no such system table
     */
    static SystemTable systemTable(String catalog, ObjectPath path) throws TableNotExistException {
        String system = systemName(path);
        Optional<SystemTable> table = SystemTable.named(system);
        if (table.isEmpty()) {
            throw new TableNotExistException(
                    catalog,
                    path,
                    new IllegalArgumentException(
                            String.format(
                                    "Unknown system table '%s' in %s: a Tarn table's system"
                                            + " tables are %s",
                                    system, path.getFullName(), SystemTable.names())));
        }
        return table.get();
    }

    /**
     * System table {@code path} ({@code db.t$name}) as Flink sees it, {@code extraOptions} added.
     *
     * @throws TableNotExistException naming {@code path} if there is no such system table or its
     *     table does not exist
     */
    public static CatalogTable table(
            String catalog,
            ObjectPath path,
            CatalogProcedures.TableLoader tables,
            Map<String, String> extraOptions)
            throws TableNotExistException {
        SystemTable system = systemTable(catalog, path);
        try {
            return catalogTable(tables.load(baseTable(path)), system, extraOptions);
        } catch (TableNotExistException e) {
            throw new TableNotExistException(catalog, path, e);
        }
    }

    /** Whether system table {@code path} exists: it is known, and its table exists. */
    public static boolean exists(ObjectPath path, Predicate<ObjectPath> tableExists) {
        return SystemTable.named(systemName(path)).isPresent() && tableExists.test(baseTable(path));
    }

    /**
     * System table {@code system} of {@code table} as Flink sees it: its columns, no key, and the
     * options that route it to the connector's system-table read, plus {@code extraOptions}.
     */
    static CatalogTable catalogTable(
            Table table, SystemTable system, Map<String, String> extraOptions) {
        RowType type = system.rowType(table);
        Schema.Builder schema = Schema.newBuilder();
        for (RowType.RowField field : type.getFields()) {
            schema.column(field.getName(), TypeConversions.fromLogicalToDataType(field.getType()));
            field.getDescription().ifPresent(schema::withComment);
        }
        Map<String, String> options = new HashMap<>(extraOptions);
        options.put(TarnConnectorOptions.PATH.key(), table.location().toString());
        options.put(TarnConnectorOptions.SYSTEM_TABLE.key(), system.tableName());
        return CatalogTable.newBuilder()
                .schema(schema.build())
                .options(options)
                .comment("System table " + system.tableName() + " of table " + table.name())
                .build();
    }

    /** Refuses to {@code action} a system table, or to make a table with a system-table name. */
    public static void checkNotSystem(String catalog, String action, ObjectPath path) {
        if (isSystemName(path)) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s table %s in catalog %s: a name with '%s' is a system table"
                                    + " (one of %s after the '%s'), and system tables are"
                                    + " read-only",
                            action,
                            path.getFullName(),
                            catalog,
                            SystemTable.SEPARATOR,
                            SystemTable.names(),
                            SystemTable.SEPARATOR));
        }
    }

    @Override
    public List<RowData> rows(String systemTable, Table table) {
        SystemTable system =
                SystemTable.named(systemTable)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                String.format(
                                                        "Unknown system table '%s' of %s: known"
                                                                + " are %s",
                                                        systemTable,
                                                        table.name(),
                                                        SystemTable.names())));
        return system.rows(table);
    }
}
