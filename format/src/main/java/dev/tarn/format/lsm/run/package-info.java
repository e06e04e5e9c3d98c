/**
 * Sorted runs of data files, the unit everything above is built of. A {@link
 * dev.tarn.format.lsm.run.SortedRun} is a sequence of changes in (key, sequence) order; a run of
 * data files holds at most one change per key and its files never overlap in key range.
 *
 * <p>{@code KeyValueFileWriter} writes a run's files, rolling at the target size and recording key
 * and sequence ranges; {@code SortedRunReader} reads them back. {@code FileRunMerge} merges runs
 * (one change per key each) without copying rows, for compaction and reads: it walks the runs,
 * given oldest first, in key order and feeds each key's versions to a merge function, ties in
 * sequence going to the newer run. With {@code dropDeletes} (nothing older lies below the output:
 * the last level, or a read) it drops results that are tombstones; otherwise it keeps them to hide
 * older versions below.
 *
 * <p>{@link dev.tarn.format.lsm.run.BucketTreeReader} reads a bucket as of a snapshot: it splits
 * the files into sections of overlapping key ranges ({@code Sections}) and merges only where files
 * overlap. Nothing here knows levels, compaction policy or the bucket's writer.
 */
package dev.tarn.format.lsm.run;
