/**
 * Decoding a data file's row groups, by one of two paths behind {@link
 * dev.tarn.format.parquet.read.RowGroupReader}:
 *
 * <pre>
 *   flat projection:   ColumnarRowGroupReader -> FlatColumnReader per column (PlainValues,
 *                      DictionaryIds, HybridLevels) -> column vectors -> BatchRow, or MappedVectors
 *                      when a file of an older schema is read under a newer one (ColumnMapping)
 *   nested projection: RecordRowGroupReader -> Parquet's record reader -> RowConverter tree
 *                      (ParquetConverters, AtomicConverters) -> a row per record
 * </pre>
 *
 * Invariant: both paths return equal rows for the same file. The row a reader returns is reused by
 * its next call, but values read from it (strings, binaries, nested values) outlive the batch.
 * {@code BinaryTransposer} turns a decoded batch into Flink binary rows column by column, for a
 * reader that hands batches between threads. {@link dev.tarn.format.parquet.read.ParquetInputFile}
 * is Flink's file system as Parquet's input, counting the bytes read. Not thread-safe.
 */
package dev.tarn.format.parquet.read;
