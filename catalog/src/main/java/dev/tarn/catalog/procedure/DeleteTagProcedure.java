package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.delete_tag(`table` => 'db.t', tag => 'eod')}: deletes a tag and the
 * files only it kept ({@link SnapshotLifecycle#deleteTag}). Public because Flink calls {@code call}
 * reflectively.
 */
public final class DeleteTagProcedure implements Procedure {

    static final String NAME = "delete_tag";

    private final Function<ObjectPath, Table> tables;

    DeleteTagProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"))
            })
    public String[] call(ProcedureContext context, String table, String tag) {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table);
        String name = args.required("tag", tag);
        Table target = tables.apply(path);
        try {
            target.maintenance().deleteTag(name);
        } catch (IllegalArgumentException e) {
            throw args.failed("tag", e);
        }
        return new String[] {"Deleted tag '" + name + "' of table " + target.name()};
    }
}
