/**
 * The log-structured merge tree of a primary-key table: one per bucket.
 *
 * <h2>Changes, sequence numbers and tombstones</h2>
 *
 * Every change to a key is a {@link dev.tarn.format.lsm.KeyValue}: the full row (the key is the
 * row's primary-key fields), a {@link org.apache.flink.types.RowKind} and a sequence number that
 * the bucket's writer hands out in increasing order. For one key, a higher sequence is a newer
 * change. A DELETE or UPDATE_BEFORE is a retraction; stored, it is a tombstone that hides every
 * older version of its key. Keys order by {@link dev.tarn.format.lsm.KeyComparator}, field by
 * field.
 *
 * <h2>Sorted runs and levels</h2>
 *
 * A sorted run is a sequence of key values in (key, sequence) order; within one run, files never
 * overlap in key range. Writes go to a {@link dev.tarn.format.lsm.SortBuffer}, which, when full
 * (spilling to local disk first, if allowed), is flushed as a new run at level 0. Each level-0 file
 * is a run of its own; each level 1..max is at most one run. The runs of a bucket are ordered by
 * age: level-0 runs newest first, then levels ascending. For any key, the versions in a newer run
 * have higher sequences than those in older runs (compaction only ever merges the newest runs), so
 * the newest version of a key is in the newest run that holds the key.
 *
 * <pre>
 *   write -> SortBuffer --flush--> L0: [run][run][run]      newest
 *                                  L1: [ run            ]
 *                                  ...
 *                                  L5: [ run                       ]   oldest, no tombstones
 * </pre>
 *
 * <h2>Merging</h2>
 *
 * Reading a bucket, compacting runs and flushing a buffer are the same operation: walk the runs
 * (oldest first) in key order and fold each key's versions, in sequence order with ties going to
 * the newer run, through the table's {@link dev.tarn.format.lsm.MergeFunction} (the {@code
 * merge-engine}; see {@link dev.tarn.format.lsm.MergeFunctions}). Runs of data files hold one
 * change per key and are merged in place ({@link dev.tarn.format.lsm.FileRunMerge}); a buffer holds
 * several and is merged by {@link dev.tarn.format.lsm.StableRunMerge} or, once it spilled, by the
 * copying {@link dev.tarn.format.lsm.MergeIterator}. The engines:
 *
 * <ul>
 *   <li>{@code deduplicate}: the newest version wins; a retraction wins as a tombstone.
 *   <li>{@code partial-update}: each field keeps its newest non-null value; retractions refused.
 *   <li>{@code aggregation}: each field folds with its aggregate function; retractions subtract.
 *   <li>{@code first-row}: the oldest row wins; retractions ignored.
 * </ul>
 *
 * {@code sequence.field} orders versions by columns before sequence; {@code ignore-delete} drops
 * retractions before the engine. Tombstones are kept by merges whose output has older runs below
 * it, and dropped when nothing older remains (output at the last level) and by reads.
 *
 * <h2>Compaction</h2>
 *
 * {@link dev.tarn.format.lsm.UniversalCompaction} decides when to merge which newest runs, by size
 * amplification, size ratio and run count, and at which level the result goes. Merging always takes
 * a prefix of the newest runs, which keeps the sequence order of runs intact.
 *
 * <h2>Files and the bucket's life</h2>
 *
 * {@link dev.tarn.format.lsm.KeyValueSchema} lays changes out in data files (the table's columns,
 * then sequence and kind); {@link dev.tarn.format.lsm.KeyValueFileWriter} writes a run's files and
 * {@link dev.tarn.format.lsm.SortedRunReader} reads them back. {@link
 * dev.tarn.format.lsm.BucketTreeWriter} is one bucket's writer: it numbers changes, flushes the
 * buffer to level 0, keeps {@link dev.tarn.format.lsm.Levels} and runs one {@link
 * dev.tarn.format.lsm.CompactionTask} at a time in the background. Readers split a bucket into
 * {@link dev.tarn.format.lsm.Sections} of overlapping files and merge only where files overlap.
 */
package dev.tarn.format.lsm;
