/**
 * Partitions and buckets: where a row lives (SPEC.md, section 6), and which partitions and buckets
 * a filter can match.
 *
 * <p>{@link dev.tarn.format.bucket.RowRouter} finds a row's partition (its partition columns as
 * text, {@code PartitionValues}) and its bucket ({@code BucketHasher}: {@code floorMod(h, N)} of a
 * fixed hash of the bucket-key columns). Both mappings are part of the format and never change: a
 * change would put rows of one key in two buckets, or a value in two partitions. Writers route rows
 * with it. {@link dev.tarn.format.bucket.BucketChannels} maps a bucket to one of {@code n} parallel
 * channels and lanes: the connector sends all rows of one bucket to one writer subtask with it, and
 * gives all splits of one bucket to one source reader and one of its fetcher threads.
 *
 * <pre>
 *   row --> partition: k1=v1/k2=v2 (text of the partition columns)
 *       --> bucket:    floorMod(hash(bucket-key columns), bucket)
 * </pre>
 *
 * <p>The same mappings prune scans: {@link dev.tarn.format.bucket.PartitionPruning} decides from a
 * partition's values whether it may match a filter, {@link dev.tarn.format.bucket.BucketPruning}
 * hashes the values a filter fixes for every bucket-key column, so a point lookup reads one bucket.
 */
package dev.tarn.format.bucket;
