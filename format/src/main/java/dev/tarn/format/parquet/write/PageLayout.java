package dev.tarn.format.parquet.write;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How the row writers lay out a file: the page codec, the target row group and page sizes in bytes
 * and whether columns start dictionary-encoded. The data writer's options, checked there.
 */
public record PageLayout(
        CompressionCodecName codec, long rowGroupSize, int pageSize, boolean dictionary) {}
