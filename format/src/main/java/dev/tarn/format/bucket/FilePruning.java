package dev.tarn.format.bucket;

import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableSchema;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import javax.annotation.Nullable;

/**
 * Which live files a scan with a filter may skip, from what the manifest says of each: its bucket
 * (a filter that fixes the bucket key names its buckets), its partition's values, and its column
 * statistics. Never skips a file that may hold a matching row. A file written under a schema
 * version with other columns is not pruned by bucket (it was bucketed by its own columns), and its
 * statistics are matched to the scan's columns by field id ({@link StatsByFieldId}). One per scan;
 * not thread-safe.
 */
public final class FilePruning {

    @Nullable private final Predicate filter;
    @Nullable private final Set<Integer> buckets;
    private final int totalBuckets;
    private final PartitionPruning partitions;
    private final Map<Partition, Boolean> partitionMatches = new HashMap<>();
    private final TableSchema schema;
    private final LongFunction<TableSchema> schemas;
    private final Map<Long, Boolean> sameColumns = new HashMap<>();
    private final Map<Long, StatsByFieldId> statsByFieldId = new HashMap<>();

    private FilePruning(
            TableSchema schema,
            LongFunction<TableSchema> schemas,
            int totalBuckets,
            @Nullable Predicate filter) {
        this.schema = schema;
        this.schemas = schemas;
        this.filter = filter;
        this.totalBuckets = totalBuckets;
        Set<Integer> fixed = BucketPruning.buckets(filter, schema, totalBuckets);
        this.buckets = fixed != null && bucketKeyChanged(schema, schemas) ? null : fixed;
        this.partitions = new PartitionPruning(schema.fieldIndexes(schema.partitionKeys()));
    }

    /**
     * Whether rows of the table's files may have been bucketed by other columns than the current
     * schema's bucket key: an append table without a 'bucket-key' option hashes by all its columns,
     * and a compaction rewrites rows bucketed by an older schema's columns under the current one.
     */
    private static boolean bucketKeyChanged(TableSchema schema, LongFunction<TableSchema> schemas) {
        if (schema.kind() != TableSchema.TableKind.APPEND
                || schema.options().containsKey(TableOptions.BUCKET_KEY.key())) {
            return false;
        }
        for (long id = 0; id < schema.id(); id++) {
            try {
                if (!schema.sameColumns(schemas.apply(id))) {
                    return true;
                }
            } catch (RuntimeException e) {
                return true; // An unreadable old schema: do not rely on it.
            }
        }
        return false;
    }

    /**
     * @param filter what may rule files out (of a primary-key table, only its key columns); null
     *     keeps every file
     */
    public static FilePruning of(TableSchema schema, int totalBuckets, @Nullable Predicate filter) {
        return new FilePruning(schema, id -> schema, totalBuckets, filter);
    }

    /**
     * As {@link #of(TableSchema, int, Predicate)}, for files written under any version of the
     * table's schema.
     *
     * @param schemas the table's schema of each id
     */
    public static FilePruning of(
            TableSchema schema,
            LongFunction<TableSchema> schemas,
            int totalBuckets,
            @Nullable Predicate filter) {
        return new FilePruning(schema, schemas, totalBuckets, filter);
    }

    /** Whether {@code entry}'s file may hold a row the filter matches. */
    public boolean mayMatch(ManifestEntry entry) {
        long schemaId = entry.file().schemaId();
        boolean own =
                schemaId == schema.id()
                        || sameColumns.computeIfAbsent(
                                schemaId, id -> schema.sameColumns(schemas.apply(id)));
        if (own
                && buckets != null
                && entry.totalBuckets() == totalBuckets
                && !buckets.contains(entry.bucket())) {
            return false;
        }
        if (filter == null) {
            return true;
        }
        boolean partitionOk =
                partitionMatches.computeIfAbsent(
                        entry.partition(), p -> partitions.mayMatch(filter, p));
        if (!partitionOk) {
            return false;
        }
        if (own) {
            return filter.mayMatch(entry.file());
        }
        StatsByFieldId stats =
                statsByFieldId.computeIfAbsent(
                        schemaId, id -> new StatsByFieldId(schema, schemas.apply(id)));
        return filter.mayMatch(stats.map(entry.file()));
    }
}
