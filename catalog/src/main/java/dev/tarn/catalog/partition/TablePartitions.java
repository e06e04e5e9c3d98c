package dev.tarn.catalog.partition;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;

/**
 * The partitions of a table that hold data in its latest snapshot, as Flink partition specs, and
 * the partitions a spec given to the catalog selects. A spec's values are {@link PartitionNames}
 * both ways: the strings a {@link Partition} stores, a NULL as {@value PartitionNames#NULL}.
 */
public final class TablePartitions {

    /** Every partition with a live file, in manifest order; empty for a table without data. */
    public static List<CatalogPartitionSpec> of(Table table) {
        return of(table, p -> true);
    }

    /** The partitions with a live file that {@code selected} accepts, in manifest order. */
    public static List<CatalogPartitionSpec> of(Table table, Predicate<Partition> selected) {
        TableMetadata metadata = table.metadata();
        Optional<Snapshot> latest = metadata.latestSnapshot();
        if (latest.isEmpty()) {
            return List.of();
        }
        Set<Partition> partitions = metadata.partitions(latest.get());
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
    public static Table partitioned(String catalog, ObjectPath path, Table table)
            throws TableNotPartitionedException {
        if (table.schema().partitionKeys().isEmpty()) {
            throw new TableNotPartitionedException(catalog, path);
        }
        return table;
    }

    /** Rejects a filter with a key that is not a partition key of {@code table}. */
    public static void checkFilter(
            String catalog, ObjectPath path, Table table, CatalogPartitionSpec filter)
            throws PartitionSpecInvalidException {
        List<String> keys = table.schema().partitionKeys();
        if (!keys.containsAll(filter.getPartitionSpec().keySet())) {
            throw new PartitionSpecInvalidException(catalog, keys, path, filter);
        }
    }

    /**
     * The partitions {@code filter} selects: each of its keys has the value its name names.
     *
     * @throws ValidationException for a malformed name ({@link PartitionNames#value})
     */
    public static Predicate<Partition> selector(Table table, CatalogPartitionSpec filter) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : filter.getPartitionSpec().entrySet()) {
            try {
                values.put(e.getKey(), PartitionNames.value(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException bad) {
                throw new ValidationException(
                        String.format(
                                "Cannot select partitions of table %s by %s: %s",
                                table.name(), filter.getPartitionSpec(), bad.getMessage()));
            }
        }
        return PartitionSpecs.selector(table.schema().partitionKeys(), List.of(values));
    }

    private static CatalogPartitionSpec spec(List<String> keys, Partition partition) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            values.put(keys.get(i), PartitionNames.name(partition.values().get(i)));
        }
        return new CatalogPartitionSpec(values);
    }

    private TablePartitions() {}
}
