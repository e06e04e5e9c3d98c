/**
 * The log-structured merge tree of a primary-key table: one per bucket. This package holds what
 * every part of the tree shares: changes, their order and their layout in files. Its sub-packages
 * build on it and on each other in one direction only:
 *
 * <pre>
 *   lsm        KeyValue, KeyComparator, KeyValueHeap, KeyValueSchema, RowCopier (and the binary
 *    ^         row encoding)
 *   merge      the merge engines: how the versions of one key fold (MergeFunction, MergeFunctions)
 *    ^
 *   sort       the write buffer of a bucket, spilling to local disk, and merging its runs back
 *    ^
 *   run        sorted runs of data files: written, read, merged; a bucket's reader
 *    ^                              ^
 *   compaction which runs to merge,  lookup   a bucket's current rows by key, and the changes
 *              and the merge task             a flush makes to them (lookup changelog)
 *    ^                              ^
 *   tree       levels and a bucket's writer, which flushes, compacts and looks up
 * </pre>
 *
 * Code outside {@code lsm} uses a few entry points only: {@link
 * dev.tarn.format.lsm.KeyValueSchema}, the merge functions, {@code BucketTrees} (which starts the
 * writer of each bucket of a table write, {@code BucketTreeWriter}), the bucket's reader ({@code
 * BucketTreeReader} and its column opener), the current rows of a bucket ({@code CurrentRows}, for
 * a streaming read that completes upserts) and {@link dev.tarn.format.lsm.RowCopier} with {@link
 * dev.tarn.format.lsm.RowBytes} (rows in Flink's binary format, handed between threads).
 *
 * <h2>Changes, sequence numbers and tombstones</h2>
 *
 * Every change to a key is a {@link dev.tarn.format.lsm.KeyValue}: the full row (the key is the
 * row's primary-key fields), a {@link org.apache.flink.types.RowKind} and a sequence number that
 * the bucket's writer hands out in increasing order. For one key, a higher sequence is a newer
 * change. A DELETE or UPDATE_BEFORE is a retraction; stored, it is a tombstone that hides every
 * older version of its key. Keys order by {@link dev.tarn.format.lsm.KeyComparator}, field by
 * field, and never hold nulls.
 *
 * <h2>Files</h2>
 *
 * {@link dev.tarn.format.lsm.KeyValueSchema} lays changes out in data files (the table's columns,
 * then sequence and kind; SPEC.md, "Primary-key data files") and orders the key ranges files
 * record. {@link dev.tarn.format.lsm.RowCopier} keeps a row its producer will reuse, as a
 * self-contained binary row. {@link dev.tarn.format.lsm.KeyValueHeap} orders the heads of sorted
 * runs for every k-way merge: the buffer's merge of its spilled runs, the tree's merge of its
 * files.
 */
package dev.tarn.format.lsm;
