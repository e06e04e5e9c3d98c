/**
 * The LSM tree of one bucket: its levels and its writer. {@link
 * dev.tarn.format.lsm.tree.BucketTrees} is the way in for a table write: it checks the table's
 * options and starts each bucket's writer. The runs, their files and the bucket's reader are {@code
 * lsm.run}'s; the compaction policy and task {@code lsm.compaction}'s; the lookup index and lookup
 * changelog {@code lsm.lookup}'s. Everything else here is package-private.
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
 * <h2>The bucket's life</h2>
 *
 * {@link dev.tarn.format.lsm.tree.BucketTreeWriter} is one bucket's writer: it numbers changes,
 * flushes the buffer to level 0 (with the lookup changelog of the flush, if the table asks for one:
 * {@code ChangelogSetup}), keeps the levels and runs one compaction at a time in the background
 * ({@code BucketCompactions}; fully, as {@code FullCompactionSchedule} says, for a {@code
 * full-compaction} changelog or {@code full-compaction.delta-commits}), and hands out what changed
 * at each commit.
 */
package dev.tarn.format.lsm.tree;
