package dev.tarn.catalog.procedure;

import dev.tarn.catalog.compact.CompactJob;
import dev.tarn.catalog.partition.PartitionSpecs;
import dev.tarn.catalog.partition.PartitionWhere;
import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.manifest.Partition;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code CALL <catalog>.sys.compact(`table` => 'db.t' [, `partitions` => 'dt=a;dt=b'] [, `where` =>
 * 'dt > ''a'''])}, or positionally: compacts the buckets of the selected partitions (all without a
 * filter) in a Flink job on the caller's environment ({@link CompactJob}): a primary-key bucket
 * into one sorted run at the last level, tombstones dropped; an append bucket's small files into
 * files of {@code target-file-size}. The result is one COMPACT snapshot that changes no row. Waits
 * for the job and returns its summary. Parses and checks the arguments; the work is the format's
 * ({@link FullCompaction}). Public because Flink calls {@code call} reflectively.
 */
public final class CompactProcedure implements Procedure {

    static final String NAME = "compact";

    private final Function<ObjectPath, Table> tables;

    CompactProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            arguments = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partitions",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "where", type = @DataTypeHint("STRING"), isOptional = true)
            })
    public String[] call(ProcedureContext context, String table, String partitions, String where)
            throws Exception {
        Table target = table(table);
        Predicate<Partition> selected = partitions(target, partitions, where);
        Optional<FullCompaction.Plan> plan;
        try {
            plan = target.maintenance().planFullCompaction(selected);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        if (plan.isEmpty()) {
            return new String[] {"Table " + target.name() + " has no snapshot: nothing to compact"};
        }
        return new String[] {CompactJob.run(context.getExecutionEnvironment(), target, plan.get())};
    }

    private Table table(String table) {
        if (table == null || table.isBlank()) {
            throw new ValidationException(
                    "Cannot compact: argument 'table' is required, e.g. 'database.table'");
        }
        ObjectPath path;
        try {
            path = ObjectPath.fromString(table);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Cannot compact '"
                            + table
                            + "': argument 'table' must name a table as 'database.table'",
                    e);
        }
        try {
            return tables.apply(path);
        } catch (ValidationException e) {
            throw new ValidationException(
                    "Cannot compact: argument 'table' names no table: " + e.getMessage(), e);
        }
    }

    /** The partitions {@code partitions} or {@code where} select: all if neither is given. */
    private static Predicate<Partition> partitions(Table table, String partitions, String where) {
        boolean bySpec = partitions != null && !partitions.isBlank();
        boolean byWhere = where != null && !where.isBlank();
        if (bySpec && byWhere) {
            throw new ValidationException(
                    "Cannot compact table "
                            + table.name()
                            + ": give argument 'partitions' or argument 'where', not both");
        }
        List<String> keys = table.schema().partitionKeys();
        if (bySpec) {
            return PartitionSpecs.selector(
                    keys, PartitionSpecs.parse(table.name(), keys, partitions));
        }
        if (byWhere) {
            RowType rowType = table.schema().rowType();
            List<LogicalType> types =
                    keys.stream().map(k -> rowType.getTypeAt(rowType.getFieldIndex(k))).toList();
            return PartitionWhere.parse(table.name(), keys, types, where);
        }
        return p -> true;
    }
}
