package dev.tarn.format.lookup;

import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.bucket.RowRouter;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.schema.TableSchema;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

/**
 * How a lookup join routes its facts to the subtask that holds their bucket (Flink's {@code
 * SupportsLookupCustomShuffle}). A key row is seen as a table row whose partition and bucket-key
 * columns are the join key's fields, and routed by the writer's own {@link RowRouter}, so reads,
 * writes and lookups agree on every bucket. Not thread-safe (its router remembers the last
 * partition): one per thread.
 */
public final class LookupShuffle implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private final int totalBuckets;
    private final List<String> joinKeys;
    private transient RowRouter router;
    private transient ProjectedRowData asTableRow;

    LookupShuffle(TableSchema schema, int totalBuckets, List<String> joinKeys) {
        this.schema = schema;
        this.totalBuckets = totalBuckets;
        this.joinKeys = List.copyOf(joinKeys);
    }

    /**
     * A shuffle for these join keys, or empty where the join keys do not determine the bucket (they
     * must contain every bucket-key column and every partition column; the table must have a fixed
     * bucket count).
     */
    public static Optional<LookupShuffle> of(
            TableSchema schema, int totalBuckets, List<String> joinKeys) {
        if (totalBuckets <= 0 || !determinesBucket(schema, joinKeys)) {
            return Optional.empty();
        }
        return Optional.of(new LookupShuffle(schema, totalBuckets, joinKeys));
    }

    /** Whether {@code joinKeys} hold every partition and bucket-key column of the table. */
    static boolean determinesBucket(TableSchema schema, List<String> joinKeys) {
        List<String> needed = new ArrayList<>(schema.partitionKeys());
        needed.addAll(schema.bucketKeys());
        return joinKeys.containsAll(needed);
    }

    /**
     * The subtask among {@code subtasks} whose {@code TableLookup (subtask, subtasks)} holds the
     * bucket of this key row (one field per join key, in the given order).
     */
    public int subtask(RowData joinKey, int subtasks) {
        BucketId bucket = bucketOf(joinKey);
        return BucketChannels.channel(bucket.partition(), bucket.bucket(), subtasks);
    }

    /** The partition and bucket of the rows whose join columns hold {@code joinKey}. */
    BucketId bucketOf(RowData joinKey) {
        if (router == null) {
            router = new RowRouter(schema, totalBuckets);
            int[] mapping = new int[schema.fields().size()];
            for (int i = 0; i < joinKeys.size(); i++) {
                mapping[schema.fieldIndex(joinKeys.get(i))] = i;
            }
            // Other table positions are never read by the router: they point at field 0.
            asTableRow = ProjectedRowData.from(mapping);
        }
        asTableRow.replaceRow(joinKey);
        Partition partition = router.partition(asTableRow);
        return new BucketId(partition, router.bucket(asTableRow));
    }
}
