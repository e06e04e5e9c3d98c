package dev.tarn.format.parquet;

import dev.tarn.format.schema.FileCompression;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How {@link ParquetDataWriter} lays out a file.
 *
 * @param compression page compression codec
 * @param zstdLevel requested zstd level; the bundled pure-Java zstd always compresses at its one
 *     built-in level (about zstd's level 3), so this is recorded for a future codec, not applied
 * @param rowGroupSize target row group size in bytes (a row group is the unit of skipping and of
 *     read parallelism)
 * @param pageSize target page size in bytes
 * @param dictionary whether to dictionary-encode columns while the dictionary stays small
 */
public record ParquetWriteOptions(
        FileCompression compression,
        int zstdLevel,
        long rowGroupSize,
        int pageSize,
        boolean dictionary) {

    /** Row groups of 128 MiB, as Parquet and Paimon default to: large scans, few footer entries. */
    static final long DEFAULT_ROW_GROUP_SIZE = 128L * 1024 * 1024;

    /** Pages of 1 MiB, Parquet's default: the granularity of decompression. */
    static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

    /** zstd's own default level. */
    static final int DEFAULT_ZSTD_LEVEL = 3;

    public ParquetWriteOptions {
        if (compression == null) {
            throw new IllegalArgumentException("Parquet write options need a compression codec");
        }
        if (rowGroupSize <= 0) {
            throw new IllegalArgumentException(
                    "Parquet row group size must be positive, got " + rowGroupSize);
        }
        if (pageSize <= 0) {
            throw new IllegalArgumentException(
                    "Parquet page size must be positive, got " + pageSize);
        }
    }

    /** The Parquet page codec of {@link #compression}. */
    CompressionCodecName codecName() {
        return switch (compression) {
            case ZSTD -> CompressionCodecName.ZSTD;
            case GZIP -> CompressionCodecName.GZIP;
            case NONE -> CompressionCodecName.UNCOMPRESSED;
        };
    }

    /** zstd, 128 MiB row groups, 1 MiB pages, dictionary encoding on. */
    public static ParquetWriteOptions defaults() {
        return new ParquetWriteOptions(
                FileCompression.ZSTD,
                DEFAULT_ZSTD_LEVEL,
                DEFAULT_ROW_GROUP_SIZE,
                DEFAULT_PAGE_SIZE,
                true);
    }
}
