package dev.tarn.format.parquet;

import dev.tarn.format.manifest.ColumnStats;

/**
 * What a finished data file holds: its row count, its size in bytes and per-column statistics for
 * every top-level column, in the writer's column order.
 */
public record DataFileStats(long rowCount, long fileSize, ColumnStats stats) {

    public DataFileStats {
        if (rowCount < 0 || fileSize < 0) {
            throw new IllegalArgumentException(
                    "Data file row count and size must not be negative, got "
                            + rowCount
                            + " rows and "
                            + fileSize
                            + " bytes");
        }
        if (stats == null) {
            throw new IllegalArgumentException("Data file statistics must not be null");
        }
    }
}
