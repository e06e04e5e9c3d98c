/**
 * The Tarn catalog: Flink's {@code Catalog} over a warehouse directory ({@code CREATE CATALOG ...
 * WITH ('type' = 'tarn')}). The file system is its only state; every call reads it afresh.
 *
 * <p>This package holds the catalog itself and what it does with tables as a whole: the layout of
 * databases and tables on disk ({@code Warehouse}), Flink tables to and from Tarn schemas, ALTER
 * and RENAME, partitions and statistics for the planner, and the refusals of what a Tarn catalog
 * does not manage. The rest lives in sub-packages, each below the catalog and never importing it:
 *
 * <pre>
 *   catalog ----> procedure ----> compact          (CALL sys.*, the compaction job)
 *      |             |
 *      |             +----------> partition        (partition names, specs, WHERE)
 *      +-------> system --------> partition        (t$snapshots, t$files, ...)
 *      |             +----------> statistics, procedure (table loader)
 *      +-------> statistics                        (row counts and column bounds from manifests)
 * </pre>
 *
 * Every table is reached through the format's {@code Table} façade: no class of the catalog uses
 * the table's context, its managers or its commit internals.
 */
package dev.tarn.catalog;
