package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import dev.tarn.format.snapshot.Tags;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.create_tag(`table` => 'db.t', tag => 'eod', snapshot_id => 41,
 * time_retained => '7 d')}: names a snapshot (the latest if {@code snapshot_id} is omitted) so that
 * expiration keeps it ({@link SnapshotLifecycle#createTag}). Public because Flink calls {@code
 * call} reflectively.
 */
public final class CreateTagProcedure implements Procedure {

    static final String NAME = "create_tag";

    private final Function<ObjectPath, Table> tables;

    CreateTagProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true),
                @ArgumentHint(
                        name = "time_retained",
                        type = @DataTypeHint("STRING"),
                        isOptional = true)
            })
    public String[] call(
            ProcedureContext context,
            String table,
            String tag,
            Long snapshotId,
            String timeRetained) {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table);
        String name = args.required("tag", tag);
        Table target = tables.apply(path);
        Tags.Tag created;
        try {
            created =
                    target.maintenance()
                            .createTag(
                                    name,
                                    snapshotId == null
                                            ? OptionalLong.empty()
                                            : OptionalLong.of(snapshotId),
                                    args.duration("time_retained", timeRetained),
                                    System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            String argument =
                    e.getMessage().contains("snapshot " + snapshotId + " does not exist")
                            ? "snapshot_id"
                            : "tag";
            throw args.failed(argument, e);
        }
        return new String[] {
            String.format(
                    "Created tag '%s' of table %s on snapshot %d%s",
                    created.name(),
                    target.name(),
                    created.snapshot().id(),
                    created.timeRetained() == null ? "" : ", kept for " + created.timeRetained())
        };
    }
}
