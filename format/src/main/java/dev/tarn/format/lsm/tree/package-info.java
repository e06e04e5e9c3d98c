/**
 * The LSM tree of one bucket: its levels, its compaction, and its writer and reader.
 *
 * <h2>Levels</h2>
 *
 * Writes go to a sort buffer, which, when full (spilling to local disk first, if allowed), is
 * flushed as a new run at level 0. Each level-0 file is a run of its own; each level 1..max is at
 * most one run ({@link dev.tarn.format.lsm.tree.Levels}). The runs of a bucket are ordered by age:
 * level-0 runs newest first, then levels ascending. For any key, the versions in a newer run have
 * higher sequences than those in older runs (compaction only ever merges the newest runs), so the
 * newest version of a key is in the newest run that holds the key.
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
 * {@link dev.tarn.format.lsm.tree.UniversalCompaction} decides when to merge which newest runs, by
 * size amplification, size ratio and run count, and at which level the result goes. Merging always
 * takes a prefix of the newest runs, which keeps the sequence order of runs intact. Tombstones are
 * kept by merges whose output has older runs below it, and dropped when nothing older remains
 * (output at the last level) and by reads.
 *
 * <h2>The bucket's life</h2>
 *
 * {@link dev.tarn.format.lsm.tree.BucketTreeWriter} is one bucket's writer: it numbers changes,
 * flushes the buffer to level 0, keeps the levels and runs one compaction at a time in the
 * background ({@code BucketCompactions}, {@code CompactionTask}), and hands out what changed at
 * each commit. {@link dev.tarn.format.lsm.tree.BucketTreeReader} reads a bucket as of a snapshot:
 * it splits the files into sections of overlapping key ranges ({@code Sections}) and merges only
 * where files overlap.
 */
package dev.tarn.format.lsm.tree;
