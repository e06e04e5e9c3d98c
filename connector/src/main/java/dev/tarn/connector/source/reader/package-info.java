/**
 * Reading splits on a source subtask's fetcher threads, beneath {@code TarnSourceReader}.
 *
 * <pre>
 *   assigned splits --LaneFetchers (LaneChoice: by bucket, or the freest lane)--> TarnSplitReader
 *     (fetcher thread: opens, seeks, decodes, under the subtask's RowLimit) --RowBatch-->
 *     element queue --> TarnRecordEmitter (task thread: emits rows, advances the split's
 *     position, feeds the declared watermark: RowWatermarks)
 * </pre>
 *
 * Invariants: in a read that follows the table, a bucket's splits are read by one lane in the order
 * assigned, so a key's changes keep snapshot order (a read of one snapshot has no order to keep,
 * and gives each split to the lane reading the fewest); files are opened and decoded off the task
 * thread, so a slow open never delays a checkpoint barrier; a table's watermark is emitted only
 * once the reader has read every split of the snapshots it covers ({@code SnapshotWatermarks}).
 * Each row carries its split's event time, the commit time of its snapshot, and the lane that opens
 * a split reports its fetch lag ({@code FetchLag}).
 */
package dev.tarn.connector.source.reader;
