/**
 * The mapping between Flink types and a data file's Parquet schema, shared by the write and read
 * sides: {@link dev.tarn.format.parquet.schema.ParquetSchemas} decides physical types, {@link
 * dev.tarn.format.parquet.schema.DecimalEncoding} and {@link
 * dev.tarn.format.parquet.schema.TimestampEncoding} how decimals and timestamps are stored.
 * Changing anything here changes the on-disk format (format/SPEC.md).
 *
 * <p>Layout of a data file, fixed by {@code ParquetSchemas} and the encodings beside it:
 *
 * <pre>
 *   Flink type                     Parquet type
 *   BOOLEAN                        boolean
 *   TINYINT / SMALLINT / INT       int32 (INT(8) / INT(16) / none)
 *   BIGINT                         int64
 *   FLOAT / DOUBLE                 float / double
 *   DECIMAL(p, s)                  int32 p<=9, int64 p<=18, fixed_len_byte_array otherwise; DECIMAL(p, s)
 *   CHAR / VARCHAR                 binary STRING (UTF-8)
 *   BINARY / VARBINARY             binary
 *   DATE                           int32 DATE (days since 1970-01-01)
 *   TIME(p)                        int32 TIME(MILLIS, local) at every precision
 *   TIMESTAMP(p) / TIMESTAMP_LTZ   int64 TIMESTAMP(MILLIS) p<=3, TIMESTAMP(MICROS) p<=6, INT96 p>6
 *                                  (isAdjustedToUTC false for TIMESTAMP, true for TIMESTAMP_LTZ)
 *   ARRAY&lt;T&gt;                       3-level LIST: group (LIST) { repeated group list { element } }
 *   MAP&lt;K, V&gt; / MULTISET&lt;T&gt;        group (MAP) { repeated group key_value { key; value } };
 *                                  a multiset maps each element to its INT count
 *   ROW                            group of its fields
 * </pre>
 *
 * Every column, field, element and value is OPTIONAL, except map keys of a NOT NULL key type
 * (REQUIRED). Pages are v1, dictionary-encoded while the dictionary pays and stays under the page
 * size (a column that outgrew it is PLAIN for the rest of its file), compressed with ZSTD
 * (default), LZ4_RAW, GZIP or not at all. The key-value metadata {@code tarn.row-type} holds the
 * writer's Flink row type.
 */
package dev.tarn.format.parquet.schema;
