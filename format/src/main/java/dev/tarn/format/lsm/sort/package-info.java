/**
 * The write buffer of one bucket. {@link dev.tarn.format.lsm.sort.SortBuffer} copies each change
 * into heap pages ({@code RecordPages}) and keeps a primitive index of (key prefix, address,
 * sequence) ({@code SortIndex}), sorted on demand, within a capacity in bytes ({@code
 * write-buffer-size}). A spillable buffer that fills up writes its sorted records to a {@code
 * SpillFile} on local disk and starts over; reading it back interleaves the spilled runs with the
 * memory part ({@code InterleavingIterator}). For a flush, {@code merged} folds each key's versions
 * through a merge function: in place when the buffer did not spill ({@code StableRunMerge}),
 * copying key by key otherwise ({@code MergeIterator}, which keeps one key's versions in reused
 * buffers, {@code CopyPool}).
 *
 * <p>Always: iteration yields every record in (key, sequence) order, equal (key, sequence) in
 * insertion order, versions of a key not merged; {@code put} allocates nothing in the steady state;
 * spill files live only until the buffer is cleared or closed. Not thread-safe.
 */
package dev.tarn.format.lsm.sort;
