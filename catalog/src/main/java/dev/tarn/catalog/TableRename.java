package dev.tarn.catalog;

import dev.tarn.catalog.system.SystemTables;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;

/**
 * Renaming a table of the catalog, within its database or to another: the checks that name what is
 * in the way, then one move of the table's directory.
 */
final class TableRename {

    private TableRename() {}

    /**
     * Moves table {@code path} of {@code catalog} to {@code target}, in any of its databases.
     * Flink's {@code ALTER TABLE ... RENAME TO} hands over only the new table name, so another
     * database is reached through {@code CALL sys.rename_table}. The table's files move with its
     * directory and are addressed relative to it; a running job still holds the old location.
     */
    static void rename(
            TarnCatalog catalog,
            Warehouse warehouse,
            ObjectPath path,
            ObjectPath target,
            boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        SystemTables.checkNotSystem(catalog.getName(), "rename", path);
        SystemTables.checkNotSystem(catalog.getName(), "rename to", target);
        if (!catalog.tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(catalog.getName(), path);
        }
        if (!catalog.databaseExists(target.getDatabaseName())) {
            throw new CatalogException(
                    String.format(
                            "Cannot rename table %s to %s in catalog %s: database %s does not"
                                    + " exist",
                            path.getFullName(),
                            target.getFullName(),
                            catalog.getName(),
                            target.getDatabaseName()));
        }
        if (catalog.tableExists(target)) {
            throw new TableAlreadyExistException(catalog.getName(), target);
        }
        if (!warehouse.renameTable(path, target)) {
            throw new CatalogException(
                    String.format(
                            "Cannot rename table %s to %s in catalog %s: directory %s is in the"
                                    + " way (it holds no table; remove it first)",
                            path.getFullName(),
                            target.getFullName(),
                            catalog.getName(),
                            warehouse.tablePath(target)));
        }
    }
}
