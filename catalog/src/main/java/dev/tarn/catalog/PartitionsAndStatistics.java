package dev.tarn.catalog;

import dev.tarn.catalog.partition.PartitionWhere;
import dev.tarn.catalog.partition.TablePartitions;
import dev.tarn.catalog.statistics.CatalogStatistics;
import dev.tarn.catalog.system.SystemTables;
import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.manifest.Partition;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The parts of Flink's {@link Catalog} a Tarn table derives from its latest snapshot: its
 * partitions (those holding a live file) and its statistics ({@link CatalogStatistics}). Everything
 * is read from metadata, never from a data file. Dropping a partition publishes one OVERWRITE
 * snapshot that deletes the partition's live files, through the table's commit, so a concurrent
 * append into it is removed too and a streaming read with {@code streaming-read-overwrite} sees its
 * rows as DELETEs.
 */
interface PartitionsAndStatistics extends Catalog {

    /** The commit identifier of a partition drop's one snapshot; its commit user is its own. */
    long DROP_IDENTIFIER = 1;

    String getName();

    /** The table at {@code path} (public only as every interface method is). */
    Table loadTable(ObjectPath path) throws TableNotExistException;

    @Override
    default List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        Table table = partitioned(path);
        return call(() -> TablePartitions.of(table));
    }

    @Override
    default List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec filter)
            throws TableNotExistException,
                    TableNotPartitionedException,
                    PartitionSpecInvalidException {
        Table table = partitioned(path);
        TablePartitions.checkFilter(getName(), path, table, filter);
        return call(() -> TablePartitions.of(table, TablePartitions.selector(table, filter)));
    }

    /**
     * The partitions all {@code filters} accept, each filter read as the {@code where} argument of
     * a procedure ({@link PartitionWhere}) in its SQL form.
     *
     * @throws UnsupportedOperationException for a filter outside that grammar (another column, a
     *     function), so that Flink lists all partitions and filters them itself
     */
    @Override
    default List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath path, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException {
        Table table = partitioned(path);
        List<String> keys = table.schema().partitionKeys();
        RowType rowType = table.schema().rowType();
        List<LogicalType> types =
                keys.stream().map(k -> rowType.getTypeAt(rowType.getFieldIndex(k))).toList();
        Predicate<Partition> selected = p -> true;
        for (Expression filter : filters) {
            String sql =
                    filter instanceof ResolvedExpression e
                            ? e.asSerializableString()
                            : filter.asSummaryString();
            try {
                selected = selected.and(PartitionWhere.parse(table.name(), keys, types, sql));
            } catch (ValidationException | UnsupportedOperationException e) {
                throw new UnsupportedOperationException(
                        String.format(
                                "Catalog %s cannot select partitions of table %s by %s: %s",
                                getName(), table.name(), sql, e.getMessage()),
                        e);
            }
        }
        Predicate<Partition> accepted = selected;
        return call(() -> TablePartitions.of(table, accepted));
    }

    /** The partition, with its rows, files and bytes as properties (as Apache Paimon's). */
    @Override
    default CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec)
            throws PartitionNotExistException {
        Table table = existingPartition(path, spec);
        CatalogTableStatistics stats =
                call(() -> CatalogStatistics.table(table, TablePartitions.selector(table, spec)));
        return new CatalogPartitionImpl(
                Map.of(
                        "numRows", String.valueOf(stats.getRowCount()),
                        "numFiles", String.valueOf(stats.getFileCount()),
                        "totalSize", String.valueOf(stats.getTotalSize())),
                null);
    }

    @Override
    default boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        try {
            return !listPartitions(path, spec).isEmpty();
        } catch (TableNotExistException
                | TableNotPartitionedException
                | PartitionSpecInvalidException e) {
            return false;
        }
    }

    /**
     * Deletes the partitions {@code spec} selects (one, given all keys) as one OVERWRITE snapshot.
     * Flink hands each partition of {@code DROP PARTITION (a), (b)} over in a call of its own, so
     * each becomes a snapshot of its own.
     */
    @Override
    default void dropPartition(
            ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        Table table;
        try {
            table = partitioned(path);
            TablePartitions.checkFilter(getName(), path, table, spec);
        } catch (TableNotExistException
                | TableNotPartitionedException
                | PartitionSpecInvalidException e) {
            throw new CatalogException(e.getMessage(), e);
        }
        if (!partitionExists(path, spec)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new PartitionNotExistException(getName(), path, spec);
        }
        Predicate<Partition> scope = TablePartitions.selector(table, spec);
        String user = "drop-partition-" + UUID.randomUUID();
        call(
                () -> {
                    try (TableCommit commit = table.newCommit(user)) {
                        return commit.commit(
                                CommitRequest.of(DROP_IDENTIFIER, List.of()).overwriting(scope));
                    }
                });
    }

    @Override
    default CatalogTableStatistics getTableStatistics(ObjectPath path)
            throws TableNotExistException {
        if (SystemTables.isSystemName(path)) {
            return CatalogTableStatistics.UNKNOWN;
        }
        Table table = loadTable(path);
        return call(() -> CatalogStatistics.table(table, p -> true));
    }

    @Override
    default CatalogColumnStatistics getTableColumnStatistics(ObjectPath path)
            throws TableNotExistException {
        if (SystemTables.isSystemName(path)) {
            return CatalogColumnStatistics.UNKNOWN;
        }
        Table table = loadTable(path);
        return call(() -> CatalogStatistics.columns(table, p -> true));
    }

    @Override
    default CatalogTableStatistics getPartitionStatistics(
            ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
        Table table = existingPartition(path, spec);
        return call(() -> CatalogStatistics.table(table, TablePartitions.selector(table, spec)));
    }

    @Override
    default CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
        Table table = existingPartition(path, spec);
        return call(() -> CatalogStatistics.columns(table, TablePartitions.selector(table, spec)));
    }

    private Table partitioned(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        return TablePartitions.partitioned(getName(), path, loadTable(path));
    }

    private Table existingPartition(ObjectPath path, CatalogPartitionSpec spec)
            throws PartitionNotExistException {
        try {
            Table table = partitioned(path);
            if (!listPartitions(path, spec).isEmpty()) {
                return table;
            }
        } catch (TableNotExistException
                | TableNotPartitionedException
                | PartitionSpecInvalidException e) {
            throw new PartitionNotExistException(getName(), path, spec, e);
        }
        throw new PartitionNotExistException(getName(), path, spec);
    }

    /** Runs a call into the format, its unchecked errors as a {@link CatalogException}. */
    private static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (CatalogException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }
}
