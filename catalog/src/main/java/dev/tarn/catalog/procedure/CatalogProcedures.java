package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.procedures.Procedure;

/**
 * The procedures a Tarn catalog offers, called as {@code CALL <catalog>.sys.<name>(...)}: the
 * database {@value #DATABASE} holds them all, as Apache Paimon names it; other databases hold none.
 */
public final class CatalogProcedures {

    static final String DATABASE = "sys";

    private final String catalog;
    private final Predicate<String> databaseExists;
    private final TableLoader tables;

    /** Loads the table a procedure works on. */
    @FunctionalInterface
    public interface TableLoader {
        Table load(ObjectPath path) throws TableNotExistException;
    }

    private final RenameTableProcedure.Rename rename;

    public CatalogProcedures(
            String catalog,
            Predicate<String> databaseExists,
            TableLoader tables,
            RenameTableProcedure.Rename rename) {
        this.catalog = catalog;
        this.databaseExists = databaseExists;
        this.tables = tables;
        this.rename = rename;
    }

    public List<String> list(String database) throws DatabaseNotExistException {
        if (database.equals(DATABASE)) {
            return List.of(
                    CompactProcedure.NAME,
                    RemoveOrphanFilesProcedure.NAME,
                    CheckTableProcedure.NAME,
                    ExpireSnapshotsProcedure.NAME,
                    CreateTagProcedure.NAME,
                    DeleteTagProcedure.NAME,
                    RollbackToProcedure.NAME,
                    RenameTableProcedure.NAME);
        }
        if (!databaseExists.test(database)) {
            throw new DatabaseNotExistException(catalog, database);
        }
        return List.of();
    }

    public Procedure get(ObjectPath procedure) throws ProcedureNotExistException {
        if (procedure.getDatabaseName().equals(DATABASE)) {
            switch (procedure.getObjectName().toLowerCase(java.util.Locale.ROOT)) {
                case CompactProcedure.NAME:
                    return new CompactProcedure(this::table);
                case ExpireSnapshotsProcedure.NAME:
                    return new ExpireSnapshotsProcedure(this::table);
                case CreateTagProcedure.NAME:
                    return new CreateTagProcedure(this::table);
                case DeleteTagProcedure.NAME:
                    return new DeleteTagProcedure(this::table);
                case RollbackToProcedure.NAME:
                    return new RollbackToProcedure(this::table);
                case RemoveOrphanFilesProcedure.NAME:
                    return new RemoveOrphanFilesProcedure(this::table);
                case CheckTableProcedure.NAME:
                    return new CheckTableProcedure(this::table);
                case RenameTableProcedure.NAME:
                    return new RenameTableProcedure(catalog, rename);
                default:
                    break;
            }
        }
        throw new ProcedureNotExistException(catalog, procedure);
    }

    /**
     * The table, or Flink's validation error naming it and the catalog. Not the message of Flink's
     * {@link TableNotExistException}: it ends in a period, and Flink's call adds one more.
     */
    private Table table(ObjectPath path) {
        try {
            return tables.load(path);
        } catch (TableNotExistException e) {
            throw new ValidationException(
                    String.format(
                            "Table %s does not exist in catalog %s", path.getFullName(), catalog),
                    e);
        }
    }
}
