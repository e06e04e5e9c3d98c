/**
 * A bucket's current rows by key, in memory, and the changes a flush makes to them.
 *
 * <p>{@code LookupIndex} holds the current row of every key of one bucket in pages of binary rows
 * ({@code RowPages}), within a {@link dev.tarn.format.lsm.lookup.LookupMemory} that the buckets of
 * one table write (or one read) share; when it runs out, the least recently used index that is not
 * pinned is evicted and rebuilt from the bucket's files when next needed. Always: the reservations
 * of the live indexes add up to at most the limit, and an index whose reservation fails holds
 * nothing (it is dropped) rather than part of its bucket.
 *
 * <p>Two users: {@link dev.tarn.format.lsm.lookup.LookupChangelog}, with {@code changelog-producer}
 * = {@code lookup}, writes at each flush the changes of the rows it makes: for every key it
 * changes, the key's previous row from the index or, for a bucket whose rows do not fit, read from
 * its files by a merge join of the flush's keys with the sections they fall in ({@code
 * PreviousRows}); optionally only the previous rows, as before-image files. {@link
 * dev.tarn.format.lsm.lookup.CurrentRows} serves a streaming read that completes upserts with the
 * rows they replace. Not thread-safe but for the memory: one thread uses each index.
 */
package dev.tarn.format.lsm.lookup;
