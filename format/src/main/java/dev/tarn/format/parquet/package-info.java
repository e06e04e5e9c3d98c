/**
 * Tarn's data files: Parquet, written and read without Hadoop. This package is the door; the
 * packages below it are its parts and never reach back up.
 *
 * <p>Entry points: {@link dev.tarn.format.parquet.ParquetDataWriter} writes one file of Flink
 * {@code RowData} and returns its {@link dev.tarn.format.parquet.ParquetDataWriter.DataFileStats}
 * (taken from the footer by {@code FooterStats}); {@link dev.tarn.format.parquet.ParquetDataReader}
 * reads a projection of a file ({@code RequestedSchema}), skipping row groups that a {@link
 * dev.tarn.format.predicate.Predicate} cannot match ({@code ParquetFilters}).
 *
 * <pre>
 *   ParquetDataWriter --rows--> write (flat column chunks | Parquet's record API) --pages--> codec
 *   ParquetDataReader <--rows-- read (column vectors | record converters) <--pages-- codec
 *                      both map types through schema; neither depends on the other
 * </pre>
 *
 * Invariant: both write paths produce the same file (page format, encodings, statistics), and both
 * read paths return the same rows; the tests compare them.
 */
package dev.tarn.format.parquet;
