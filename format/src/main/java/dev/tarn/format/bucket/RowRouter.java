package dev.tarn.format.bucket;

import dev.tarn.format.manifest.Partition;
import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Finds the partition and bucket of a row. Consecutive rows of one partition (the common case)
 * reuse the last {@link Partition} after a field-by-field comparison, so routing allocates nothing
 * per row for strings already held by the row.
 */
public final class RowRouter {

    private final int[] partitionIndexes;
    private final LogicalType[] partitionTypes;
    private final RowData.FieldGetter[] partitionGetters;
    private final BucketHasher hasher;
    private final int totalBuckets;

    private Object[] lastValues;
    private Partition lastPartition = Partition.EMPTY;

    public RowRouter(TableSchema schema, int totalBuckets) {
        this.partitionIndexes = schema.fieldIndexes(schema.partitionKeys());
        this.partitionTypes = new LogicalType[partitionIndexes.length];
        this.partitionGetters = new RowData.FieldGetter[partitionIndexes.length];
        for (int i = 0; i < partitionIndexes.length; i++) {
            partitionTypes[i] = schema.fields().get(partitionIndexes[i]).type();
            partitionGetters[i] = RowData.createFieldGetter(partitionTypes[i], partitionIndexes[i]);
        }
        this.totalBuckets = totalBuckets;
        this.hasher =
                totalBuckets > 0
                        ? new BucketHasher(
                                schema.rowType(), schema.fieldIndexes(schema.bucketKeys()))
                        : null;
    }

    public Partition partition(RowData row) {
        if (partitionIndexes.length == 0) {
            return Partition.EMPTY;
        }
        if (lastValues != null && sameAsLast(row)) {
            return lastPartition;
        }
        Object[] values = new Object[partitionIndexes.length];
        List<String> texts = new ArrayList<>(partitionIndexes.length);
        for (int i = 0; i < partitionIndexes.length; i++) {
            Object value = partitionGetters[i].getFieldOrNull(row);
            texts.add(PartitionValues.toText(value, partitionTypes[i]));
            // Keep an owned copy: the row (and its strings) may be reused by the caller.
            values[i] =
                    value == null
                            ? null
                            : PartitionValues.fromText(texts.get(i), partitionTypes[i]);
        }
        lastValues = values;
        lastPartition = new Partition(texts);
        return lastPartition;
    }

    private boolean sameAsLast(RowData row) {
        for (int i = 0; i < partitionIndexes.length; i++) {
            if (!Objects.equals(partitionGetters[i].getFieldOrNull(row), lastValues[i])) {
                return false;
            }
        }
        return true;
    }

    /** The row's bucket: 0 for tables without bucketing. */
    public int bucket(RowData row) {
        return hasher == null ? 0 : hasher.bucket(row, totalBuckets);
    }
}
