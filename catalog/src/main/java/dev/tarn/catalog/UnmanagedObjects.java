package dev.tarn.catalog;

import java.util.List;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;

/**
 * The parts of Flink's {@link Catalog} a Tarn catalog does not manage: functions, stored statistics
 * and partition DDL but DROP. Listing finds nothing, reads say "does not exist", and every write
 * fails with a message naming the object and what to do instead. Partitions exist only through the
 * data written to them, so they are created by INSERT and never by DDL (Apache Paimon's file-system
 * catalog records none by DDL either); statistics are computed, not stored ({@link
 * PartitionsAndStatistics}).
 */
interface UnmanagedObjects extends Catalog {

    String getName();

    // ------ functions: none are stored; temporary functions live in the session ------

    @Override
    default List<String> listFunctions(String database) throws DatabaseNotExistException {
        if (!databaseExists(database)) {
            throw new DatabaseNotExistException(getName(), database);
        }
        return List.of();
    }

    @Override
    default CatalogFunction getFunction(ObjectPath function) throws FunctionNotExistException {
        throw new FunctionNotExistException(getName(), function);
    }

    @Override
    default boolean functionExists(ObjectPath function) {
        return false;
    }

    @Override
    default void createFunction(ObjectPath function, CatalogFunction spec, boolean ignoreIfExists)
            throws DatabaseNotExistException {
        if (!databaseExists(function.getDatabaseName())) {
            throw new DatabaseNotExistException(getName(), function.getDatabaseName());
        }
        throw new CatalogException(
                String.format(
                        "Cannot create function %s in catalog %s: a Tarn catalog does not store"
                                + " functions; use CREATE TEMPORARY FUNCTION instead",
                        function.getFullName(), getName()));
    }

    @Override
    default void alterFunction(ObjectPath function, CatalogFunction spec, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), function);
        }
    }

    @Override
    default void dropFunction(ObjectPath function, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), function);
        }
    }

    // ------ partition DDL: partitions appear with the data written to them ------

    @Override
    default void createPartition(
            ObjectPath table,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfExists) {
        throw partitionDdl("add", table, spec);
    }

    @Override
    default void alterPartition(
            ObjectPath table,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfNotExists) {
        throw partitionDdl("alter", table, spec);
    }

    private CatalogException partitionDdl(String action, ObjectPath table, CatalogPartitionSpec s) {
        return new CatalogException(
                String.format(
                        "Cannot %s partition %s of table %s in catalog %s: a Tarn table's"
                                + " partitions follow its data; write it with INSERT (INSERT"
                                + " OVERWRITE ... PARTITION (...) to replace one, ALTER TABLE"
                                + " ... DROP PARTITION (...) to delete one)",
                        action, s.getPartitionSpec(), table.getFullName(), getName()));
    }

    // ------ statistics: computed from the manifests, never stored ------

    @Override
    default void alterTableStatistics(
            ObjectPath table, CatalogTableStatistics stats, boolean ignoreIfNotExists) {
        throw statistics(table);
    }

    @Override
    default void alterTableColumnStatistics(
            ObjectPath table, CatalogColumnStatistics stats, boolean ignoreIfNotExists) {
        throw statistics(table);
    }

    @Override
    default void alterPartitionStatistics(
            ObjectPath table,
            CatalogPartitionSpec spec,
            CatalogTableStatistics stats,
            boolean ignoreIfNotExists) {
        throw statistics(table);
    }

    @Override
    default void alterPartitionColumnStatistics(
            ObjectPath table,
            CatalogPartitionSpec spec,
            CatalogColumnStatistics stats,
            boolean ignoreIfNotExists) {
        throw statistics(table);
    }

    private CatalogException statistics(ObjectPath table) {
        return new CatalogException(
                String.format(
                        "Cannot store statistics of table %s in catalog %s: a Tarn catalog"
                                + " computes them from the latest snapshot's manifests whenever"
                                + " they are asked for, so there is nothing to store (ANALYZE"
                                + " TABLE is not needed)",
                        table.getFullName(), getName()));
    }
}
