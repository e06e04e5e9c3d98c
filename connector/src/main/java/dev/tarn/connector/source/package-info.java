/**
 * The Tarn FLIP-27 source: a bounded read of one snapshot.
 *
 * <pre>
 *   planner: TarnTableSource (projection, filter, limit pushdown; resolves the snapshot)
 *      |
 *   [TarnSplitEnumerator] -- one split per request --> [TarnSourceReader 0..n-1] --> rows
 *      plans the pinned snapshot into splits              reads splits through TableRead
 * </pre>
 *
 * <p>The snapshot is fixed when the statement is planned, so every reader sees the same table
 * version and later commits are not seen. Splits are files of one bucket of one partition; the
 * enumerator's pending splits and each reader's position within its split are checkpointed, so a
 * restore neither repeats nor skips a row. Filters only prune (partitions, files, row groups,
 * pages); Flink applies every filter to the rows returned.
 *
 * <p>A streaming read's watermark advances snapshot by snapshot: the enumerator tells every reader
 * the table's watermark as of a snapshot ({@code TableWatermarks}: recorded by the snapshots'
 * writers for {@code SOURCE_WATERMARK()}, or the lowest the readers' generators reached over a
 * snapshot's rows for a declared watermark), and each reader emits it once it has read its splits
 * of the snapshots it covers ({@code SnapshotWatermarks}), readers without splits at once.
 *
 * <p>A catalog's system tables read through here too: {@code TarnAuditLogTableSource} is the
 * table's own read with each row's kind as a leading column, {@code TarnMetadataTableSource} a
 * bounded read of rows the catalog computed from the table's metadata when the plan was made.
 */
package dev.tarn.connector.source;
