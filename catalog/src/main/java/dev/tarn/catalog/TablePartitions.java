package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;

/**
 * The partitions of a table that hold data in its latest snapshot, as Flink partition specs. Values
 * are the strings a {@link Partition} stores; a SQL NULL becomes {@value Partition#NULL_DIRECTORY},
 * the name Flink's partition pruning reads as NULL by default.
 */
final class TablePartitions {

    /** Every partition with a live file, in manifest order; empty for a table without data. */
    static List<CatalogPartitionSpec> of(Table table) {
        return of(table, p -> true);
    }

    /** The partitions with a live file that {@code selected} accepts, in manifest order. */
    static List<CatalogPartitionSpec> of(Table table, Predicate<Partition> selected) {
        SnapshotReader reader = table.snapshotReader();
        Optional<Snapshot> latest = reader.latest();
        if (latest.isEmpty()) {
            return List.of();
        }
        Set<Partition> partitions = reader.partitions(latest.get());
        List<String> keys = table.schema().partitionKeys();
        List<CatalogPartitionSpec> specs = new ArrayList<>();
        for (Partition partition : partitions) {
            if (selected.test(partition)) {
                specs.add(spec(keys, partition));
            }
        }
        return specs;
    }

    /** {@code table}, or the catalog's error that it has no partitions. */
    static Table partitioned(String catalog, ObjectPath path, Table table)
            throws TableNotPartitionedException {
        if (table.schema().partitionKeys().isEmpty()) {
            throw new TableNotPartitionedException(catalog, path);
        }
        return table;
    }

    /** Rejects a filter with a key that is not a partition key of {@code table}. */
    static void checkFilter(
            String catalog, ObjectPath path, Table table, CatalogPartitionSpec filter)
            throws PartitionSpecInvalidException {
        List<String> keys = table.schema().partitionKeys();
        if (!keys.containsAll(filter.getPartitionSpec().keySet())) {
            throw new PartitionSpecInvalidException(catalog, keys, path, filter);
        }
    }

    /** Whether every key of {@code filter} has the same value in {@code spec}. */
    static boolean matches(CatalogPartitionSpec spec, CatalogPartitionSpec filter) {
        return spec.getPartitionSpec().entrySet().containsAll(filter.getPartitionSpec().entrySet());
    }

    /** The partitions {@code filter} selects: each of its keys has the same value. */
    static Predicate<Partition> selector(Table table, CatalogPartitionSpec filter) {
        List<String> keys = table.schema().partitionKeys();
        return partition -> matches(spec(keys, partition), filter);
    }

    private static CatalogPartitionSpec spec(List<String> keys, Partition partition) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String value = partition.values().get(i);
            values.put(keys.get(i), value == null ? Partition.NULL_DIRECTORY : value);
        }
        return new CatalogPartitionSpec(values);
    }

    private TablePartitions() {}
}
