package dev.tarn.format.manifest;

import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * Per-column statistics of one data file, in the file's column order. Values are Flink internal
 * data ({@code Long}, {@code StringData}, {@code DecimalData}, {@code TimestampData}, ...). A
 * {@code null} bound means "unknown" (nested types, long strings, or all values null); a null count
 * of -1 means unknown. Known bounds are exact: every non-null value v satisfies min <= v <= max.
 */
public record ColumnStats(Object[] mins, Object[] maxs, long[] nullCounts) {

    public ColumnStats {
        if (mins.length != maxs.length || mins.length != nullCounts.length) {
            throw new IllegalArgumentException(
                    "Column statistics arrays differ in length: "
                            + mins.length
                            + ", "
                            + maxs.length
                            + ", "
                            + nullCounts.length);
        }
    }

    /** Statistics that know nothing about {@code columns} columns. */
    public static ColumnStats unknown(int columns) {
        long[] nulls = new long[columns];
        Arrays.fill(nulls, -1);
        return new ColumnStats(new Object[columns], new Object[columns], nulls);
    }

    public int columnCount() {
        return mins.length;
    }

    @Nullable
    public Object min(int column) {
        return mins[column];
    }

    @Nullable
    public Object max(int column) {
        return maxs[column];
    }

    /** The number of nulls in the column, or -1 if unknown. */
    public long nullCount(int column) {
        return nullCounts[column];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnStats that
                && Arrays.equals(mins, that.mins)
                && Arrays.equals(maxs, that.maxs)
                && Arrays.equals(nullCounts, that.nullCounts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(mins) + Arrays.hashCode(maxs))
                + Arrays.hashCode(nullCounts);
    }

    @Override
    public String toString() {
        return "ColumnStats{min="
                + Arrays.toString(mins)
                + ", max="
                + Arrays.toString(maxs)
                + ", nulls="
                + Arrays.toString(nullCounts)
                + "}";
    }
}
