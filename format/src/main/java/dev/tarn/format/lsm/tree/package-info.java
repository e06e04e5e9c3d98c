/**
 * The LSM tree of one bucket: its sorted runs of data files, its levels, its compaction, and its
 * writer and reader. {@link dev.tarn.format.lsm.tree.BucketTrees} is the way in for a table write:
 * it checks the table's options and starts each bucket's writer; {@link
 * dev.tarn.format.lsm.tree.BucketTreeReader} reads a bucket. Everything else here is
 * package-private.
 *
 * <h2>Sorted runs</h2>
 *
 * A {@code SortedRun} is a sequence of changes in (key, sequence) order; a run of data files holds
 * at most one change per key and its files never overlap in key range. {@code KeyValueFileWriter}
 * writes a run's files, rolling at the target size and recording key and sequence ranges; {@code
 * SortedRunReader} reads them back. {@code FileRunMerge} merges runs of data files (one change per
 * key each) in place without copying rows, for compaction and reads: it walks the runs, given
 * oldest first, in key order and feeds each key's versions to a merge function, ties in sequence
 * going to the newer run. With {@code dropDeletes} (nothing older lies below the output: the last
 * level, or a read) it drops results that are tombstones; otherwise it keeps them to hide older
 * versions below.
 *
 * <h2>Levels</h2>
 *
 * Writes go to a sort buffer, which, when full (spilling to local disk first, if allowed), is
 * flushed as a new run at level 0. Each level-0 file is a run of its own; each level 1..max is at
 * most one run ({@code Levels}). The runs of a bucket are ordered by age: level-0 runs newest
 * first, then levels ascending. For any key, the versions in a newer run have higher sequences than
 * those in older runs (compaction only ever merges the newest runs), so the newest version of a key
 * is in the newest run that holds the key.
 *
 * <pre>
 *   write -> SortBuffer --flush--> L0: [run][run][run]      newest
 *                                  L1: [ run            ]
 *                                  ...
 *                                  L5: [ run                       ]   oldest, no tombstones
 * </pre>
 *
 * <h2>Compaction</h2>
 *
 * {@code UniversalCompaction} decides when to merge which newest runs, by size amplification, size
 * ratio and run count, and at which level the result goes. Merging always takes a prefix of the
 * newest runs, which keeps the sequence order of runs intact. Tombstones are kept by merges whose
 * output has older runs below it, and dropped when nothing older remains (output at the last level)
 * and by reads.
 *
 * <h2>The bucket's life</h2>
 *
 * {@link dev.tarn.format.lsm.tree.BucketTreeWriter} is one bucket's writer: it numbers changes,
 * flushes the buffer to level 0, keeps the levels and runs one compaction at a time in the
 * background ({@code BucketCompactions}, {@code CompactionTask}), and hands out what changed at
 * each commit. {@link dev.tarn.format.lsm.tree.BucketTreeReader} reads a bucket as of a snapshot:
 * it splits the files into sections of overlapping key ranges ({@code Sections}) and merges only
 * where files overlap.
 *
 * <h2>Changelog files</h2>
 *
 * With {@code changelog-producer} = {@code lookup}, each flush also writes the changes of the rows
 * it makes ({@code LookupChangelog}): for every key it changes, the key's previous row, from a
 * {@code LookupIndex} of the bucket's current rows kept across commits in memory the buckets share
 * ({@code LookupMemory}, least recently used evicted), or, for a bucket whose rows do not fit, read
 * from its files by a merge join of the flush's keys with the sections they fall in ({@code
 * PreviousRows}).
 *
 * <p>With {@code full-compaction}, each compaction of every run to the last level also writes the
 * changes between the last level's rows before and after it ({@code FullCompactionChangelog}, fed
 * by {@code FileRunMerge}'s diff of each key's oldest-run version and merged result); they travel
 * with the compaction's files and are published or dropped with them. {@code
 * FullCompactionSchedule} says when a writer compacts fully.
 */
package dev.tarn.format.lsm.tree;
