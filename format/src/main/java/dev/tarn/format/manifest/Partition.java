package dev.tarn.format.manifest;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The values of a row's partition columns, as strings in partition-key order ({@code null} for a
 * SQL NULL). The directory of a partition is {@code k1=v1/k2=v2}, with each value escaped so that
 * any string maps to one path segment and back.
 */
public record Partition(List<String> values) implements Serializable {

    /** The partition of an unpartitioned table. */
    public static final Partition EMPTY = new Partition(List.of());

    /** How a SQL NULL partition value appears in a path (as in Hive and Paimon). */
    public static final String NULL_DIRECTORY = "__DEFAULT_PARTITION__";

    public Partition {
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    public static Partition of(String... values) {
        return new Partition(Arrays.asList(values));
    }

    public int size() {
        return values.size();
    }

    /** The relative directory, e.g. {@code dt=2026-11-30/region=eu}; empty for no partition. */
    public String path(List<String> keys) {
        if (keys.size() != values.size()) {
            throw new IllegalArgumentException(
                    "Partition " + values + " does not match partition keys " + keys);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            String value = values.get(i);
            sb.append(escape(keys.get(i)))
                    .append('=')
                    .append(value == null ? NULL_DIRECTORY : escape(value));
        }
        return sb.toString();
    }

    /** How an empty string partition value appears in a path. */
    public static final String EMPTY_DIRECTORY = "__EMPTY_PARTITION__";

    /**
     * Maps a value to one safe path segment, injectively: bytes other than letters, digits and
     * {@code - _ .} become {@code %XX}, and so do a leading {@code .} (hidden files) and a leading
     * {@code _} (so no value can read as one of the two markers, which start with {@code __}).
     */
    static String escape(String s) {
        if (s.isEmpty()) {
            return EMPTY_DIRECTORY;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int c = bytes[i] & 0xFF;
            boolean plain =
                    (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '-'
                            || (i > 0 && (c == '_' || c == '.'));
            if (plain) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return sb.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    @Override
    public String toString() {
        return values.toString();
    }
}
