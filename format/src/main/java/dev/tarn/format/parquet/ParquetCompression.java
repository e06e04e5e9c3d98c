package dev.tarn.format.parquet;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The page compression codecs Tarn writes. All of them are pure Java ({@link TarnCodecFactory}), so
 * the shaded jar needs no native library and no Hadoop.
 */
public enum ParquetCompression {
    ZSTD(CompressionCodecName.ZSTD),
    GZIP(CompressionCodecName.GZIP),
    NONE(CompressionCodecName.UNCOMPRESSED);

    private final CompressionCodecName codecName;

    ParquetCompression(CompressionCodecName codecName) {
        this.codecName = codecName;
    }

    CompressionCodecName codecName() {
        return codecName;
    }

    /**
     * Parses a table option value, ignoring case: {@code zstd}, {@code gzip}, {@code none} or its
     * alias {@code uncompressed}.
     */
    public static ParquetCompression fromOption(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("uncompressed")) {
            return NONE;
        }
        for (ParquetCompression compression : values()) {
            if (compression.name().toLowerCase(Locale.ROOT).equals(normalized)) {
                return compression;
            }
        }
        String allowed =
                Arrays.stream(values())
                        .map(c -> c.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", "));
        throw new IllegalArgumentException(
                "Unknown Parquet compression '"
                        + value
                        + "': expected one of "
                        + allowed
                        + ", uncompressed");
    }
}
