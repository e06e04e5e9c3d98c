package dev.tarn.catalog;

import dev.tarn.catalog.procedure.CatalogProcedures;
import dev.tarn.catalog.procedure.RenameTableProcedure;
import dev.tarn.catalog.system.SystemTables;
import dev.tarn.connector.TarnDynamicTableFactory;
import dev.tarn.format.Table;
import dev.tarn.format.TableAlreadyExistsException;
import dev.tarn.format.TableNotFoundException;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.procedures.Procedure;

/**
 * A Flink catalog over a warehouse directory (layout in {@link Warehouse}). The file system is the
 * only state: every call reads it afresh, so several catalogs and jobs may share a warehouse.
 * Creating a table and altering its options are atomic (an exclusive schema file); dropping and
 * renaming are directory operations and as atomic as the file system makes them. Tables are handed
 * to Flink with their stored options plus {@code path}, their location, which the connector ({@link
 * #getFactory()}) loads them from; a {@code path} given to CREATE TABLE is ignored, so the DDL that
 * SHOW CREATE TABLE prints runs in any catalog.
 */
public final class TarnCatalog extends AbstractCatalog
        implements UnmanagedObjects, PartitionsAndStatistics {

    private final Path root;
    private final FileIO io;

    /** Table options of the catalog, given to each table that does not store its own. */
    private final Map<String, String> tableOptions;

    @Nullable private Warehouse warehouse;

    public TarnCatalog(String name, Path warehouse, String defaultDatabase) {
        this(name, warehouse, defaultDatabase, Map.of());
    }

    /**
     * @param tableOptions table options the catalog gives each of its tables that does not store
     *     its own value ({@code commit.lock} and its settings), in its jobs, ALTERs and procedures
     */
    public TarnCatalog(
            String name, Path warehouse, String defaultDatabase, Map<String, String> tableOptions) {
        this(name, warehouse, defaultDatabase, FileIO.flinkFileSystems(), tableOptions);
    }

    TarnCatalog(String name, Path warehouse, String defaultDatabase, FileIO io) {
        this(name, warehouse, defaultDatabase, io, Map.of());
    }

    TarnCatalog(
            String name,
            Path warehouse,
            String defaultDatabase,
            FileIO io,
            Map<String, String> tableOptions) {
        super(name, defaultDatabase);
        this.root = warehouse;
        this.io = io;
        this.tableOptions = Map.copyOf(tableOptions);
    }

    /** Creates the warehouse and the default database if missing; fails if it is not writable. */
    @Override
    public void open() {
        Warehouse opened = Warehouse.open(io, root, getName());
        if (!opened.databaseExists(getDefaultDatabase())) {
            opened.createDatabase(getDefaultDatabase());
        }
        warehouse = opened;
    }

    @Override
    public void close() {
        // Nothing is held open between calls.
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(
                new TarnDynamicTableFactory(
                        new SystemTables(), io, tableOptions, this::tableLocation));
    }

    /** Where table {@code path} lives (a system table's: its table's), for the connector. */
    private Path tableLocation(ObjectPath path) {
        return warehouse()
                .tablePath(SystemTables.isSystemName(path) ? SystemTables.baseTable(path) : path);
    }

    private Warehouse warehouse() {
        if (warehouse == null) {
            throw new CatalogException("Catalog " + getName() + " is not open; call open() first");
        }
        return warehouse;
    }

    // ------ databases ------

    @Override
    public List<String> listDatabases() {
        return warehouse().databases();
    }

    @Override
    public CatalogDatabase getDatabase(String name) throws DatabaseNotExistException {
        requireDatabase(name);
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String name) {
        return warehouse().databaseExists(name);
    }

    /** The comment is not stored; properties are refused, as nothing would read them. */
    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
        if (!database.getProperties().isEmpty()) {
            throw new CatalogException(
                    String.format(
                            "Cannot create database %s in catalog %s: database properties are not"
                                    + " supported, got %s",
                            name, getName(), database.getProperties()));
        }
        if (databaseExists(name)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(getName(), name);
        }
        warehouse().createDatabase(name);
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        if (!cascade && !warehouse().tables(name).isEmpty()) {
            throw new DatabaseNotEmptyException(getName(), name);
        }
        warehouse().deleteDatabase(name);
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase database, boolean ignoreIfNotExists)
            throws DatabaseNotExistException {
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        throw new CatalogException(
                String.format(
                        "Cannot alter database %s in catalog %s: a Tarn database has no"
                                + " properties to change",
                        name, getName()));
    }

    private void requireDatabase(String name) throws DatabaseNotExistException {
        if (!databaseExists(name)) {
            throw new DatabaseNotExistException(getName(), name);
        }
    }

    // ------ tables ------

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return warehouse().tables(database);
    }

    @Override
    public List<String> listViews(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return List.of();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        if (SystemTables.isSystemName(path)) {
            return SystemTables.table(getName(), path, this::load, Map.of());
        }
        return CatalogTables.toCatalogTable(load(path), Map.of());
    }

    /** The table as of {@code timestamp} ({@code FOR SYSTEM_TIME AS OF}), read per that time. */
    @Override
    public CatalogBaseTable getTable(ObjectPath path, long timestamp)
            throws TableNotExistException {
        Table table = load(SystemTables.isSystemName(path) ? SystemTables.baseTable(path) : path);
        // Fails here, naming the table and the time, rather than later in the planned source.
        formatCall(() -> table.metadata().snapshotAtOrBefore(timestamp));
        Map<String, String> asOf =
                Map.of(TableOptions.SCAN_TIMESTAMP_MILLIS.key(), String.valueOf(timestamp));
        return SystemTables.isSystemName(path)
                ? SystemTables.table(getName(), path, this::load, asOf)
                : CatalogTables.toCatalogTable(table, asOf);
    }

    /** Whether the table exists; a system table's name exists if its table does. */
    @Override
    public boolean tableExists(ObjectPath path) {
        return SystemTables.isSystemName(path)
                ? SystemTables.exists(path, warehouse()::tableExists)
                : warehouse().tableExists(path);
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists)
            throws TableNotExistException {
        SystemTables.checkNotSystem(getName(), "drop", path);
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        warehouse().deleteTable(path);
    }

    /** Renames within the database: Flink passes none other (see {@link RenameTableProcedure}). */
    @Override
    public void renameTable(ObjectPath path, String newName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        renameTable(path, new ObjectPath(path.getDatabaseName(), newName), ignoreIfNotExists);
    }

    /**
     * Moves table {@code path} to {@code target}, in any database of this catalog ({@link
     * TableRename}).
     */
    void renameTable(ObjectPath path, ObjectPath target, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        TableRename.rename(this, warehouse(), path, target, ignoreIfNotExists);
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        requireDatabase(path.getDatabaseName());
        SystemTables.checkNotSystem(getName(), "create", path);
        ResolvedCatalogTable resolved =
                CatalogTables.withoutGivenPath(
                        CatalogTables.resolved("create", getName(), path, table));
        if (tableExists(path)) {
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(getName(), path);
        }
        String name = path.getFullName();
        try {
            formatCall(
                    () ->
                            Table.create(
                                    io,
                                    warehouse().tablePath(path),
                                    name,
                                    CatalogTables.toSchema("create", name, resolved, null)));
        } catch (TableAlreadyExistsException e) {
            // Another session created it between the check above and the schema commit.
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(getName(), path, e);
            }
        }
    }

    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException {
        alterTable(path, newTable, List.of(), ignoreIfNotExists);
    }

    @Override
    public void alterTable(
            ObjectPath path,
            CatalogBaseTable newTable,
            List<TableChange> changes,
            boolean ignoreIfNotExists)
            throws TableNotExistException {
        SystemTables.checkNotSystem(getName(), "alter", path);
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        Table table = load(path);
        List<SchemaChange> columns =
                TableAlteration.columnChanges(path.getFullName(), changes, table.schema());
        ResolvedCatalogTable resolved = CatalogTables.resolved("alter", getName(), path, newTable);
        formatCall(() -> table.alter(TableAlteration.changes(table, resolved, columns)));
    }

    // ------ procedures: CALL <catalog>.sys.<name>(...) ------

    @Override
    public List<String> listProcedures(String database) throws DatabaseNotExistException {
        return procedures().list(database);
    }

    @Override
    public Procedure getProcedure(ObjectPath procedure) throws ProcedureNotExistException {
        return procedures().get(procedure);
    }

    private CatalogProcedures procedures() {
        return new CatalogProcedures(
                getName(),
                this::databaseExists,
                this::load,
                (from, to) -> renameTable(from, to, false));
    }

    @Override
    public Table loadTable(ObjectPath path) throws TableNotExistException {
        return load(path);
    }

    /** The table at {@code path}; a corrupt schema file fails as a {@link CatalogException}. */
    private Table load(ObjectPath path) throws TableNotExistException {
        try {
            Table table = Table.load(io, warehouse().tablePath(path), path.getFullName());
            Map<String, String> given = new HashMap<>(tableOptions);
            given.keySet().removeAll(table.schema().options().keySet());
            return given.isEmpty() ? table : table.withDynamicOptions(given);
        } catch (TableNotFoundException e) {
            throw new TableNotExistException(getName(), path, e);
        } catch (CatalogException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    /**
     * Runs a call into the format, turning its unchecked errors into a {@link CatalogException}
     * with the same message (the format's messages already name the table and the value).
     */
    private static <T> T formatCall(Supplier<T> call) {
        try {
            return call.get();
        } catch (CatalogException | TableAlreadyExistsException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }
}
