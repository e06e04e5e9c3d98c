package dev.tarn.format.bucket;

import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;

/**
 * Decides, from its values alone, whether a partition may hold rows matching a {@link Predicate}.
 * Leaves on columns that are not partition keys never rule a partition out: pruning must never drop
 * a matching row.
 */
final class PartitionPruning {

    private final int[] partitionFieldIndexes;

    /**
     * @param partitionFieldIndexes the table field index of each partition key, in key order
     */
    PartitionPruning(int[] partitionFieldIndexes) {
        this.partitionFieldIndexes = partitionFieldIndexes.clone();
    }

    boolean mayMatch(Predicate p, Partition partition) {
        if (p instanceof Predicate.And and) {
            return and.children().stream().allMatch(c -> mayMatch(c, partition));
        }
        if (p instanceof Predicate.Or or) {
            return or.children().stream().anyMatch(c -> mayMatch(c, partition));
        }
        Predicate.Leaf leaf = (Predicate.Leaf) p;
        int key = indexOf(partitionFieldIndexes, leaf.field());
        if (key < 0) {
            return true;
        }
        return leaf.mayMatchValue(
                PartitionValues.fromText(partition.values().get(key), leaf.type()));
    }

    private static int indexOf(int[] array, int value) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
