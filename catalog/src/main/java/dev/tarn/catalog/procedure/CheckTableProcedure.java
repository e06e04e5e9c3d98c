package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.PendingCheck;
import dev.tarn.format.maintenance.TableCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.check_table(`table` => 'db.t', deep => false)}: checks that every file
 * the snapshots of a table need exists with its recorded size (and with {@code deep} that its
 * Parquet footer reads), as {@link TableCheck} does in the calling process. One row per missing or
 * damaged file with the snapshots that need it; from the ledger of pending commits, one row per
 * missing prepared file (no snapshots), one per commit user naming the checkpoint to restore its
 * job from, one per user no job has recorded for in {@code pending-commit.retention}; then a
 * summary row naming the newest whole snapshot. Public because Flink calls {@code call}
 * reflectively.
 */
public final class CheckTableProcedure implements Procedure {

    static final String NAME = "check_table";

    private final Function<ObjectPath, Table> tables;

    CheckTableProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "deep", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            })
    public @DataTypeHint("ROW<file STRING, problem STRING, snapshots STRING>") Row[] call(
            ProcedureContext context, String table, Boolean deep) {
        Table target = tables.apply(TableArgument.parse(table, "check"));
        TableCheck.Result result;
        try {
            result = target.maintenance().check(Boolean.TRUE.equals(deep));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        List<Row> rows = new ArrayList<>();
        for (TableCheck.Problem p : result.problems()) {
            rows.add(
                    Row.of(
                            p.file(),
                            p.problem(),
                            p.snapshots().stream()
                                    .map(String::valueOf)
                                    .collect(Collectors.joining(", "))));
        }
        pendingRows(result.pending(), target.config().lifecycle().pendingRetention(), rows);
        rows.add(
                Row.of(
                        null,
                        result.summary(),
                        result.newestWhole().isPresent()
                                ? String.valueOf(result.newestWhole().getAsLong())
                                : null));
        return rows.toArray(new Row[0]);
    }

    /**
     * The ledger's answer: a row per missing prepared file (no snapshot needs it), a row per commit
     * user naming the checkpoint to restore from, a row per user untouched for the retention.
     */
    private static void pendingRows(
            PendingCheck.Result pending, Duration retention, List<Row> rows) {
        for (PendingCheck.Missing m : pending.missing()) {
            rows.add(Row.of(m.file(), m.problem(), null));
        }
        for (PendingCheck.RestorePoint point : pending.restorePoints()) {
            rows.add(Row.of(null, point.advice(), null));
        }
        for (PendingCheck.Untouched u : pending.untouched()) {
            rows.add(Row.of(null, u.warning(retention), null));
        }
    }
}
