package dev.tarn.format.schema;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How data files are compressed ({@code file.compression}). The Parquet writer maps each to its
 * page codec; all of them have a pure-Java implementation, so the shaded jar needs no native
 * library and no Hadoop.
 */
public enum FileCompression {
    ZSTD,
    GZIP,
    NONE;

    /**
     * Parses a table option value, ignoring case: {@code zstd}, {@code gzip}, {@code none} or its
     * alias {@code uncompressed}.
     */
    public static FileCompression fromOption(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("uncompressed")) {
            return NONE;
        }
        for (FileCompression compression : values()) {
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
