package dev.tarn.format.parquet.write;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How the row writers lay out a file: the page codec, the target row group and page sizes in bytes,
 * whether columns start dictionary-encoded, and the field ids of the leading top-level columns
 * (Parquet's {@code field_id}, SPEC.md section 7; empty for none). The data writer's options,
 * checked there.
 */
public record PageLayout(
        CompressionCodecName codec,
        long rowGroupSize,
        int pageSize,
        boolean dictionary,
        int[] fieldIds) {}
