package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import dev.tarn.format.TableMaintenance;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import java.time.ZoneId;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.expire_snapshots(`table` => 'db.t', retain_max => 20, retain_min => 1,
 * older_than => '2026-11-29 00:00:00', max_deletes => 10)}: expires old snapshots and the files
 * only they hold ({@link SnapshotLifecycle#expire}), by the arguments given over the table's
 * options, all that they allow unless {@code max_deletes} is given. Arguments as Apache Paimon
 * names them; {@code older_than} is in the client's time zone. Returns one line: the snapshots
 * expired and left, the files deleted. Public because Flink calls {@code call} reflectively.
 */
public final class ExpireSnapshotsProcedure implements Procedure {

    static final String NAME = "expire_snapshots";

    private final Function<ObjectPath, Table> tables;

    ExpireSnapshotsProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "retain_max", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(name = "retain_min", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "max_deletes", type = @DataTypeHint("INT"), isOptional = true)
            })
    public String[] call(
            ProcedureContext context,
            String table,
            Integer retainMax,
            Integer retainMin,
            String olderThan,
            Integer maxDeletes) {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table);
        SnapshotLifecycle.ExpireRequest request =
                new SnapshotLifecycle.ExpireRequest(
                        args.atLeast("retain_max", retainMax, 1),
                        args.atLeast("retain_min", retainMin, 1),
                        args.timestamp("older_than", olderThan, ZoneId.systemDefault()),
                        args.atLeast("max_deletes", maxDeletes, 1));
        TableMaintenance target = tables.apply(path).maintenance();
        try {
            target.checkExpireRequest(request);
        } catch (IllegalArgumentException e) {
            // The counts contradict each other or the table's: name the one given.
            throw args.failed(retainMax != null ? "retain_max" : "retain_min", e);
        }
        try {
            return new String[] {
                target.expireSnapshots(request, System.currentTimeMillis()).summary()
            };
        } catch (IllegalArgumentException e) {
            throw args.failed("table", e);
        }
    }
}
