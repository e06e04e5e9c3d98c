/**
 * The write seam: {@link dev.tarn.format.write.TableWrite}, one per writer task, routes rows to a
 * bucket writer per (partition, bucket), one implementation per table kind (an append table's
 * rolling files; a primary-key table's LSM tree, with the buffer budget, flush and compaction
 * threads its buckets share, and a view of the table that long-running writers follow snapshot by
 * snapshot). At a commit it hands out what it wrote as {@link
 * dev.tarn.format.write.CommitMessage}s; until they are published those files belong to the caller.
 */
package dev.tarn.format.write;
