/**
 * Compaction of a bucket's runs: which to merge, and the merge itself.
 *
 * <p>{@link dev.tarn.format.lsm.compaction.UniversalCompaction} decides when to merge which newest
 * runs, by size amplification, size ratio and run count, and at which level the result goes ({@code
 * CompactionUnit}); it sees runs only as level and size ({@code SortedRunInfo}). Merging always
 * takes a prefix of the newest runs, which keeps the sequence order of runs intact. Tombstones are
 * kept by merges whose output has older runs below it, and dropped when nothing older remains
 * (output at the last level).
 *
 * <p>{@link dev.tarn.format.lsm.compaction.CompactionTask} is one merge, run on the table write's
 * background executor: it reads the chosen runs, merges them ({@code FileRunMerge}) and writes the
 * output run, deleting what it wrote if it fails. With {@code changelog-producer} = {@code
 * full-compaction}, a compaction of every run to the last level also writes the changes between the
 * last level's rows before and after it ({@code FullCompactionChangelog}, fed by the merge's diff
 * of each key's oldest-run version and merged result); they travel with the compaction's files and
 * are published or dropped with them. When a writer compacts, and applying the result to its
 * levels, is the writer's ({@code lsm.tree}).
 */
package dev.tarn.format.lsm.compaction;
