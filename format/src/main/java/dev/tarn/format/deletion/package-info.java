/**
 * Deletion vectors: which rows of a data file are deleted, without rewriting the file.
 *
 * <p>A {@link dev.tarn.format.deletion.DeletionVector} is the set of deleted row positions of one
 * data file, a 64-bit Roaring bitmap (a 32-bit Roaring bitmap per high 32 bits of the position).
 * The vectors of many data files are stored together in an index file ({@link
 * dev.tarn.format.deletion.DeletionIndexFile}), a Puffin file of {@code deletion-vector-v1} blobs
 * whose footer names, per blob, the data file, its offset, length and number of deleted rows
 * ({@link dev.tarn.format.deletion.DeletionVectorBlob}). Blob and file are byte for byte what
 * Apache Iceberg v3 writes and reads for its deletion vectors, so an Iceberg reader can use Tarn's
 * vectors as they are (SPEC.md, "Deletion vectors").
 *
 * <pre>
 *   index file: PFA1 | blob(data-1) | blob(data-2) ... | PFA1 footer-json size flags PFA1
 *   blob:       length | D1 D3 39 64 | count, (key, roaring bitmap)* | CRC-32
 * </pre>
 *
 * <p>{@link dev.tarn.format.deletion.IndexFiles} writes a bucket's changed vectors to a new index
 * file of the table's {@code index/} directory and reads one back by its place; snapshots name them
 * through index manifests ({@code manifest.IndexManifest}). Primary-key writers mark the rows their
 * flushes replace ({@code lsm.lookup.BucketVectors}), and readers skip them ({@code
 * ParquetDataReader.withDeletions}).
 */
package dev.tarn.format.deletion;
