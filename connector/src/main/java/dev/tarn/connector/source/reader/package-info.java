/**
 * Reading splits on a source subtask's fetcher threads, beneath {@code TarnSourceReader}.
 *
 * <pre>
 *   assigned splits --BucketFetchers (one lane per bucket)--> TarnSplitReader (fetcher thread:
 *     opens, seeks, decodes) --RowBatch--> element queue --> TarnRecordEmitter (task thread:
 *     emits rows, advances the split's position, feeds the declared watermark: RowWatermarks)
 * </pre>
 *
 * Invariants: a bucket's splits are read by one lane in the order assigned, so a key's changes keep
 * snapshot order; files are opened and decoded off the task thread, so a slow open never delays a
 * checkpoint barrier; a table's watermark is emitted only once the reader has read every split of
 * the snapshots it covers ({@code SnapshotWatermarks}).
 */
package dev.tarn.connector.source.reader;
