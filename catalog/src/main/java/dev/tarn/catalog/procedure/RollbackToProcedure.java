package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.rollback_to(`table` => 'db.t', snapshot_id => 41)} or {@code tag =>
 * 'eod'}: removes the later snapshots and the files only they hold ({@link
 * SnapshotLifecycle#rollbackTo}); stop the table's writers first. Public because Flink calls {@code
 * call} reflectively.
 */
public final class RollbackToProcedure implements Procedure {

    static final String NAME = "rollback_to";

    private final Function<ObjectPath, Table> tables;

    RollbackToProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"), isOptional = true)
            })
    public String[] call(ProcedureContext context, String table, Long snapshotId, String tag) {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table);
        if ((snapshotId == null) == (tag == null)) {
            throw args.invalid(
                    "snapshot_id",
                    snapshotId,
                    "give either snapshot_id or tag (tag: "
                            + ProcedureArguments.literal(tag)
                            + ")");
        }
        Table target = tables.apply(path);
        try {
            SnapshotLifecycle.RollbackResult result =
                    snapshotId != null
                            ? target.maintenance().rollbackTo(snapshotId)
                            : target.maintenance().rollbackToTag(tag);
            return new String[] {result.summary()};
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw args.failed(snapshotId != null ? "snapshot_id" : "tag", e);
        }
    }
}
