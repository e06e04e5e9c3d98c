/**
 * What the source's enumerator and readers exchange. A {@link
 * dev.tarn.connector.source.split.TarnSplit} is a format {@code Split} (files of one bucket of one
 * partition, from one snapshot) with the reader's position in it, serialized by {@code
 * TarnSplitSerializer} (versioned) into checkpoints of both sides; {@code TarnSplitState} is the
 * mutable position while a reader emits. The source events: {@code SplitsFinished} and {@code
 * SplitsRestored} from a reader, {@code SnapshotWatermark} from the enumerator.
 *
 * <p>Invariant: a split's position counts emitted rows only, so a restored reader resumes after the
 * last row it emitted, never repeating or skipping one.
 */
package dev.tarn.connector.source.split;
