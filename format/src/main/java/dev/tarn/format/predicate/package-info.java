/**
 * Predicates: the filters a query pushes down, and what they rule out without reading rows.
 *
 * <p>A {@link dev.tarn.format.predicate.Predicate} is a tree of AND, OR and leaves ({@code field op
 * literals}, literals in Flink's internal data), over the table's full row type. It only ever
 * prunes: whatever passes (a partition, a file, a Parquet row group) may still hold rows that do
 * not match, so the engine applies the filter itself as well. Every evaluation here answers "may
 * match" when it cannot be sure.
 *
 * <pre>
 *   filter --> partitions (bucket.FilePruning) --> buckets (bucket.FilePruning)
 *          --> files, by their column statistics (Predicate.mayMatch)
 *          --> row groups and pages (parquet.ParquetDataReader)
 * </pre>
 *
 * <p>{@link dev.tarn.format.predicate.Predicates} restricts a filter to some columns (a primary-key
 * table may only prune by its key columns before versions merge). Predicates travel to Flink tasks
 * by Java serialization; {@code SerializedLeaf} carries literals of Flink's non-serializable
 * internal types. {@code Predicate} is the package's one public type: its evaluation against file
 * statistics and single values ({@code PredicateEvaluator}) is reached through it. This package
 * depends on manifests (for file statistics) and nothing else of the format, so the Parquet reader
 * and the scan alike can use it.
 */
package dev.tarn.format.predicate;
