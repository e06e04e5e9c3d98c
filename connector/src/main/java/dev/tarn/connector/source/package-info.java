/**
 * The Tarn FLIP-27 source, as Flink's planner and runtime meet it: {@code TarnTableSource}
 * (projection, filter, limit and watermark push-down; resolves the snapshot or the start), {@code
 * TarnSource} (one of three modes: one snapshot, following the table, or the changes of {@code
 * incremental-between}) and {@code TarnSourceReader}, the reader Flink runs per subtask. The parts
 * live below, as in Flink's Kafka connector:
 *
 * <pre>
 *   source       TarnTableSource -> TarnSource -> enumerator + TarnSourceReader (+ system tables)
 *   enumerator   plans snapshots into splits and assigns them (coordinator)
 *   reader       fetcher threads that open and decode splits, and the record emitter (subtask)
 *   split        what travels between the two: splits, their state, and the source events
 * </pre>
 *
 * Layers point down: reader and enumerator know split, never each other. A one-snapshot read pins
 * its snapshot at planning time, so every reader sees the same table version. Splits are files of
 * one bucket of one partition; the enumerator's pending and in-flight splits and each reader's
 * position within its split are checkpointed, so a restore neither repeats nor skips a row. Filters
 * only prune (partitions, files, row groups, pages); Flink applies every filter to the rows
 * returned.
 *
 * <p>A catalog's system tables read through here too: {@code TarnAuditLogTableSource} is the
 * table's own read with each row's kind as a leading column, {@code TarnMetadataTableSource} a
 * bounded read of rows the catalog computed from the table's metadata when the plan was made.
 */
package dev.tarn.connector.source;
