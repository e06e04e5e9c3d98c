/**
 * Writing a data file's row groups, by one of two paths behind {@link
 * dev.tarn.format.parquet.write.ParquetRowWriter}:
 *
 * <pre>
 *   flat row type:   FlatRowWriter -> ColumnChunkWriter per column (Boolean | Number | Binary,
 *                    dictionary through ValueDictionary while it pays) -> pages -> ParquetOutputFile
 *   nested columns:  RecordRowWriter -> RowDataWriteSupport -> FieldWriter tree (AtomicWriters,
 *                    NestedWriters) -> Parquet's record API -> pages -> ParquetOutputFile
 * </pre>
 *
 * The flat path encodes pages itself and hands them to Parquet's page store; the record path lets
 * Parquet encode. Both write v1 pages with the same encodings and statistics, laid out as {@link
 * dev.tarn.format.parquet.write.PageLayout} says, so a reader cannot tell them apart. A writer is
 * used by one thread; a failed row leaves it unusable (the data writer deletes the file).
 */
package dev.tarn.format.parquet.write;
