/**
 * Sorted runs and merging them. A {@link dev.tarn.format.lsm.run.SortedRun} is a sequence of
 * changes in (key, sequence) order; a run of data files holds at most one change per key and its
 * files never overlap in key range. {@link dev.tarn.format.lsm.run.KeyValueFileWriter} writes a
 * run's files, rolling at the target size and recording key and sequence ranges; {@link
 * dev.tarn.format.lsm.run.SortedRunReader} reads them back.
 *
 * <p>Merging walks several runs, given oldest first, in key order and feeds each key's versions to
 * a merge function, ties in sequence going to the newer run:
 *
 * <ul>
 *   <li>{@link dev.tarn.format.lsm.run.FileRunMerge}: runs of data files (one change per key each),
 *       merged in place without copying rows; for compaction and reads.
 *   <li>{@link dev.tarn.format.lsm.run.MergeIterator}: runs with several versions per key whose
 *       rows are reused, copying each key's versions; for flushing a buffer that spilled.
 *   <li>{@link dev.tarn.format.lsm.run.InterleavingIterator}: runs interleaved in (key, sequence)
 *       order without merging; for reading back spilled buffers.
 * </ul>
 *
 * With {@code dropDeletes} (nothing older lies below the output: the last level, or a read) a merge
 * drops results that are tombstones; otherwise it keeps them to hide older versions below.
 */
package dev.tarn.format.lsm.run;
