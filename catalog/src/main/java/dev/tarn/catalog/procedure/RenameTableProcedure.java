package dev.tarn.catalog.procedure;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.rename_table(`table` => 'db.events', new_name => 'db2.events_v1')}:
 * moves a table to another name in any database of the catalog ({@code new_name} may also be {@code
 * '<catalog>.db2.events_v1'}, naming this catalog). Flink's {@code ALTER TABLE ... RENAME TO} hands
 * a catalog only the new table name and drops its database and catalog, so it renames within the
 * database. Public because Flink calls {@code call} reflectively.
 */
public final class RenameTableProcedure implements Procedure {

    static final String NAME = "rename_table";

    /** The catalog step, {@code TarnCatalog.renameTable}. */
    @FunctionalInterface
    public interface Rename {
        void rename(ObjectPath from, ObjectPath to)
                throws TableNotExistException, TableAlreadyExistException;
    }

    private final String catalog;
    private final Rename rename;

    RenameTableProcedure(String catalog, Rename rename) {
        this.catalog = catalog;
        this.rename = rename;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "new_name", type = @DataTypeHint("STRING"))
            })
    public String[] call(ProcedureContext context, String table, String newName) {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath from = args.table(table);
        ObjectPath to = target(args, args.required("new_name", newName));
        try {
            rename.rename(from, to);
        } catch (TableNotExistException e) {
            throw refused(from, to, "table " + from.getFullName() + " does not exist", e);
        } catch (TableAlreadyExistException e) {
            throw refused(from, to, "table " + to.getFullName() + " already exists", e);
        } catch (CatalogException e) {
            // The catalog's rename names both tables and the catalog already.
            throw new ValidationException(e.getMessage(), e);
        }
        return new String[] {
            String.format(
                    "Renamed table %s to %s in catalog %s",
                    from.getFullName(), to.getFullName(), catalog)
        };
    }

    private ValidationException refused(
            ObjectPath from, ObjectPath to, String reason, Exception cause) {
        return new ValidationException(
                String.format(
                        "Cannot rename table %s to %s in catalog %s: %s",
                        from.getFullName(), to.getFullName(), catalog, reason),
                cause);
    }

    /** {@code 'db.t'}, or {@code 'catalog.db.t'} naming this catalog. */
    private ObjectPath target(ProcedureArguments args, String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length == 3 && !parts[0].equals(catalog)) {
            throw args.invalid(
                    "new_name",
                    name,
                    String.format(
                            "catalog %s cannot move a table into catalog %s; name a database of"
                                    + " %s as 'database.table'",
                            catalog, parts[0], catalog));
        }
        String path = parts.length == 3 ? parts[1] + "." + parts[2] : name;
        try {
            return ObjectPath.fromString(path);
        } catch (IllegalArgumentException e) {
            throw args.invalid("new_name", name, "name the new table as 'database.table'");
        }
    }
}
