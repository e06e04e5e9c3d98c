/**
 * The source's split enumerators, on Flink's coordinator. {@link
 * dev.tarn.connector.source.enumerator.TarnSplitEnumerator} hands out the splits of one planned
 * snapshot, one per request, to whichever reader asks. {@link
 * dev.tarn.connector.source.enumerator.TarnContinuousEnumerator} follows a table: it plans the
 * start, probes for each next snapshot on the coordinator's worker thread and turns its changes
 * into splits, which {@code SplitAssigner} gives to the reader that owns their bucket, in snapshot
 * order, so a key's changes stay in order; {@code ConsumerPosition} records a consumer's position
 * as checkpoints complete; {@code TableWatermarks} learns the table's watermark snapshot by
 * snapshot and tells the readers.
 *
 * <p>Invariant: the checkpointed state ({@code TarnEnumeratorState}: the next snapshot, the splits
 * not yet assigned, the assigned ones not reported finished) never holds a snapshot half planned.
 * Called on the coordinator thread only, but for discovery, whose results it applies there.
 */
package dev.tarn.connector.source.enumerator;
