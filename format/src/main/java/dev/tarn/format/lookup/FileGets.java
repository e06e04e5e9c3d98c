package dev.tarn.format.lookup;

import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Gets of a {@link TableLookup} answered from a bucket's files, for a get whose bucket the first
 * load has not loaded yet: the split is read with equality on the join columns as a further filter,
 * and its rows of the key are applied to a small bucket of their own, which answers as the loaded
 * bucket will. Only where the files are sorted by the join columns ({@link #applies}): their page
 * statistics then leave a page or so of each file to read, and a merged split returns a key's rows
 * one after another, so its read stops once they are past. Thread-safe: each get reads on its own.
 */
final class FileGets {

    private final TableContext table;
    private final LookupLayout layout;
    @Nullable private final Predicate filter;
    private final List<String> joinKeys;
    private final RowData.FieldGetter[] keyGetters;
    private final RowFilter rowFilter;
    private final boolean keepFirst;
    private final java.nio.file.Path localDir;

    /** The join keys (by position) {@link #keyFilter} compares: those outside the partition. */
    private final int[] filterKeys;

    /** The memory and local disk of the short-lived buckets, apart from the loaded buckets'. */
    private final LookupBudget budget;

    /** Compares a read row's join columns (its first fields are a stored row's) with a probe's. */
    private final IndexOrder order;

    FileGets(
            TableContext table,
            LookupSpec spec,
            LookupLayout layout,
            boolean keepFirst,
            RowData.FieldGetter[] keyGetters) {
        this.table = table;
        this.layout = layout;
        this.filter = spec.filter();
        this.joinKeys = spec.joinKeys();
        this.keyGetters = keyGetters;
        this.rowFilter = RowFilter.of(spec.filter(), layout.readPosition);
        this.keepFirst = keepFirst;
        this.localDir = spec.localDir();
        List<String> partition = table.schema().partitionKeys();
        this.filterKeys =
                java.util.stream.IntStream.range(0, joinKeys.size())
                        .filter(i -> !partition.contains(joinKeys.get(i)))
                        .toArray();
        this.budget =
                new LookupBudget(
                        table.config().lsm().memory().lookupCacheSize(),
                        table.config().lookup().maxDiskBytes());
        this.order = new IndexOrder(layout.storeType, layout.indexKey);
    }

    /**
     * Whether {@code joinKeys} are the leading columns of a primary-key table's key, partition
     * columns aside (a bucket's files hold one partition), so its files are sorted by them, and the
     * first of them is of a type whose Parquet statistics an equality prunes by: else every get
     * would read its bucket whole.
     */
    static boolean applies(TableContext table, List<String> joinKeys) {
        if (table.kind() != TableKind.PRIMARY_KEY) {
            return false;
        }
        List<String> partition = table.schema().partitionKeys();
        Set<String> join = new HashSet<>(joinKeys);
        join.removeAll(partition);
        List<String> key =
                table.schema().primaryKeys().stream().filter(k -> !partition.contains(k)).toList();
        return !join.isEmpty()
                && join.size() <= key.size()
                && join.equals(new HashSet<>(key.subList(0, join.size())))
                && prunes(table.schema().fieldType(key.get(0)));
    }

    /** Whether the Parquet filter of an equality on a column of {@code type} skips pages. */
    private static boolean prunes(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIME_WITHOUT_TIME_ZONE, CHAR, VARCHAR ->
                    true;
            // Up to 18 digits a decimal is stored as an integer, and a timestamp up to micros as a
            // long; wider ones are fixed-length bytes or INT96, which the filter does not compare.
            case DECIMAL -> LogicalTypeChecks.getPrecision(type) <= 18;
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    LogicalTypeChecks.getPrecision(type) <= 6;
            default -> false;
        };
    }

    /**
     * Calls {@code out} for the current rows of a bucket's {@code splits} whose join columns equal
     * {@code key}'s (one field per join key, none null): stored rows, valid during the call.
     */
    void get(List<Split> splits, RowData key, Consumer<RowData> out) throws IOException {
        GenericRowData probe = layout.probe(key, keyGetters);
        HeldBucket bucket = HeldBucket.spilling(layout, rowFilter, keepFirst, budget, localDir);
        bucket.lock.writeLock().lock();
        try {
            read(splits, keyFilter(key), probe, bucket);
            bucket.scan(probe, out);
        } finally {
            try {
                bucket.close();
            } finally {
                bucket.lock.writeLock().unlock();
            }
        }
    }

    /** Applies the rows of {@code splits} whose join columns equal {@code probe}'s to a bucket. */
    private void read(List<Split> splits, Predicate keys, RowData probe, HeldBucket bucket)
            throws IOException {
        TableRead read =
                new TableRead(table)
                        .withReadType(layout.readType)
                        .withFilter(
                                filter == null ? keys : new Predicate.And(List.of(keys, filter)));
        for (Split split : splits) {
            // A merged split returns rows in key order; one read file by file, in file order.
            boolean keyOrder = split.kind() == Split.Kind.SNAPSHOT;
            try (TableRead.SplitReader reader = read.open(split)) {
                boolean found = false;
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    if (order.compare(row, probe, layout.joinFields) == 0) {
                        found = true;
                        bucket.apply(row);
                    } else if (found && keyOrder) {
                        break;
                    }
                }
            }
        }
    }

    /**
     * Equality of each join column but the partition's with {@code key}'s field: the split read is
     * of one partition already.
     */
    private Predicate keyFilter(RowData key) {
        List<Predicate> leaves = new ArrayList<>(filterKeys.length);
        for (int i : filterKeys) {
            String name = joinKeys.get(i);
            leaves.add(
                    new Predicate.Leaf(
                            Predicate.Op.EQ,
                            table.schema().fieldIndex(name),
                            name,
                            table.schema().fieldType(name),
                            List.of(keyGetters[i].getFieldOrNull(key))));
        }
        return leaves.size() == 1 ? leaves.get(0) : new Predicate.And(leaves);
    }
}
