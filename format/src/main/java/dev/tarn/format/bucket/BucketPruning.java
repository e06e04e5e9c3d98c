package dev.tarn.format.bucket;

import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;

/**
 * The buckets a filter can match: when it fixes every bucket-key column to one value or a few
 * ({@code =} or {@code IN}, under a top-level AND), only the buckets those values hash to hold
 * matching rows. A point lookup by primary key so reads one bucket of its partition.
 */
final class BucketPruning {

    /** Value combinations hashed at most; beyond, pruning would cost more than it saves. */
    private static final int MAX_COMBINATIONS = 1024;

    private BucketPruning() {}

    /** The matching buckets, or null if the filter does not narrow them down. */
    @Nullable
    static Set<Integer> buckets(@Nullable Predicate filter, TableSchema schema, int totalBuckets) {
        if (filter == null || totalBuckets <= 0) {
            return null;
        }
        List<Predicate> conjuncts =
                filter instanceof Predicate.And and ? and.children() : List.of(filter);
        int[] keyIndexes = schema.fieldIndexes(schema.bucketKeys());
        List<List<Object>> valuesPerKey = new ArrayList<>();
        long combinations = 1;
        for (int field : keyIndexes) {
            List<Object> values = fixedValues(conjuncts, field);
            if (values == null) {
                return null;
            }
            combinations *= values.size();
            if (combinations > MAX_COMBINATIONS) {
                return null;
            }
            valuesPerKey.add(values);
        }
        BucketHasher hasher = new BucketHasher(schema.rowType(), keyIndexes);
        GenericRowData row = new GenericRowData(schema.fields().size());
        Set<Integer> buckets = new HashSet<>();
        addBuckets(valuesPerKey, keyIndexes, 0, row, hasher, totalBuckets, buckets);
        return buckets;
    }

    /** The values an EQ or IN conjunct on {@code field} allows, or null if none fixes it. */
    @Nullable
    private static List<Object> fixedValues(List<Predicate> conjuncts, int field) {
        for (Predicate p : conjuncts) {
            if (p instanceof Predicate.Leaf leaf
                    && leaf.field() == field
                    && (leaf.op() == Predicate.Op.EQ || leaf.op() == Predicate.Op.IN)) {
                return leaf.literals();
            }
        }
        return null;
    }

    private static void addBuckets(
            List<List<Object>> valuesPerKey,
            int[] keyIndexes,
            int depth,
            GenericRowData row,
            BucketHasher hasher,
            int totalBuckets,
            Set<Integer> buckets) {
        if (depth == keyIndexes.length) {
            buckets.add(hasher.bucket(row, totalBuckets));
            return;
        }
        for (Object value : valuesPerKey.get(depth)) {
            row.setField(keyIndexes[depth], value);
            addBuckets(valuesPerKey, keyIndexes, depth + 1, row, hasher, totalBuckets, buckets);
        }
    }
}
