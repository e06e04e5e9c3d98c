package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import java.util.function.Function;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.compact('db.table')}: compacts every bucket of a primary-key table into
 * one sorted run at the last level, dropping tombstones, and publishes the result as one COMPACT
 * snapshot that changes no row ({@link FullCompaction}, in the calling process). Parses the
 * arguments and reports the result; the work is the format's. Public because Flink calls {@code
 * call} reflectively.
 */
public final class CompactProcedure implements Procedure {

    static final String NAME = "compact";

    private final Function<ObjectPath, Table> tables;

    CompactProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    public String[] call(ProcedureContext context, String table) {
        ObjectPath path;
        try {
            path = ObjectPath.fromString(table);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Cannot compact '" + table + "': name a table as 'database.table'", e);
        }
        Table target = tables.apply(path);
        try {
            return new String[] {
                FullCompaction.run(target.context())
                        .map(FullCompaction.Result::summary)
                        .orElse("Table " + target.name() + " has no snapshot: nothing to compact")
            };
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }
}
