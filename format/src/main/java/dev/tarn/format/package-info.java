/**
 * The table format, usable without a Flink cluster. {@link dev.tarn.format.Table} is the façade:
 * loading and creating tables (with the schema rules they must meet), per-query options, and the
 * entry points of the seams. Below it, packages by concept, each layer importing only those under
 * it:
 *
 * <pre>
 *   Table (façade)  maintenance
 *   commit          (publishes CommitMessages as snapshots)
 *   read  write     (scan/read splits; write buckets)
 *   table           (TableContext: what the seams take of a table)
 *   lsm             (primary-key buckets: merge engines, sort buffer, run merging, tree)
 *   parquet         (data files)
 *   predicate  bucket
 *   schema          (schemas, options, kinds)
 *   snapshot        (snapshots, the publish seam, the snapshot reader)
 *   manifest        (manifests: which files make up a snapshot)
 *   io              (file I/O, the table layout)
 * </pre>
 */
package dev.tarn.format;
