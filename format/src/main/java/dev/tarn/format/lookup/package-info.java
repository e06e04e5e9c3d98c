/**
 * Lookup joins (issue 26): a table's current rows, the buckets one join subtask holds, indexed by
 * the join columns and kept fresh from each new snapshot.
 *
 * <pre>
 *   Table.newLookup(LookupSpec) -> TableLookup --open/refresh--> BucketLoader (TableScan, StreamScan, TableRead)
 *                                      |                                |
 *                                      +-- get(key) --> HeldBucket (per partition and bucket, a lock)
 *                                                          |-- BucketStore of rows by index key
 *                                                          +-- BucketStore of key -> join values (joins off the key)
 *   LookupShuffle: join key -> the subtask holding its bucket (the writer's RowRouter, BucketChannels)
 * </pre>
 *
 * A mode (key, prefix, secondary, append) is chosen once per lookup from the table kind and the
 * join columns; the rows a bucket holds are sorted by join columns, then the primary key (or an
 * append table's row id), so a get is one seek.
 */
package dev.tarn.format.lookup;
