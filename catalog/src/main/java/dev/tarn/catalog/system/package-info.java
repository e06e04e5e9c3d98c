/**
 * The system tables of a Tarn table, read as {@code <table>$<name>}: {@code snapshots}, {@code
 * schemas}, {@code options}, {@code tags}, {@code consumers}, {@code files}, {@code manifests},
 * {@code partitions}, {@code buckets} and the audit log. Each is read-only and computed when the
 * query is planned, from the table's metadata through the format's {@code Table}; names and columns
 * follow Apache Paimon's tables of the same concept. The catalog hands them to Flink by name
 * ({@code SystemTables}); every write to one is refused.
 */
package dev.tarn.catalog.system;
