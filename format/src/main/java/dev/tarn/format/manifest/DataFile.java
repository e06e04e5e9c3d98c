package dev.tarn.format.manifest;

import java.io.Serializable;
import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * A file of a table, as a manifest records it. The file lives in its partition's bucket directory;
 * its name is unique within the table.
 *
 * @param content what the file holds (rows, changelog, before-images); readers go by it, never by
 *     the name
 * @param level 0 for files written by a writer; higher levels hold compacted, sorted runs
 * @param schemaId the schema the file was written with
 * @param valueStats statistics of every column of that schema, in column order
 * @param keyRange the file's smallest and largest primary key; null in append tables
 */
public record DataFile(
        String fileName,
        FileContent content,
        long fileSize,
        long rowCount,
        int level,
        long schemaId,
        SequenceRange sequence,
        ColumnStats valueStats,
        @Nullable KeyRange keyRange)
        implements Serializable {

    /** This file with the sequence range {@code range}. */
    public DataFile withSequence(SequenceRange range) {
        return new DataFile(
                fileName,
                content,
                fileSize,
                rowCount,
                level,
                schemaId,
                range,
                valueStats,
                keyRange);
    }

    /** This file with the statistics {@code stats}. */
    public DataFile withValueStats(ColumnStats stats) {
        return new DataFile(
                fileName, content, fileSize, rowCount, level, schemaId, sequence, stats, keyRange);
    }

    /**
     * Per-column statistics of one data file, in the file's column order. Values are Flink internal
     * data ({@code Long}, {@code StringData}, {@code DecimalData}, {@code TimestampData}, ...). A
     * {@code null} bound means "unknown" (nested types, long strings, or all values null); a null
     * count of -1 means unknown. Known bounds are exact: every non-null value v satisfies min <= v
     * <= max.
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

    /** The smallest and largest sequence number of the rows in a file; min <= max. */
    public record SequenceRange(long min, long max) implements Serializable {

        public SequenceRange {
            if (min > max) {
                throw new IllegalArgumentException(
                        "Sequence range [" + min + ", " + max + "] is empty");
            }
        }
    }

    /**
     * The smallest and largest primary key in a data file of a primary-key table, each the bytes of
     * a binary row of the key columns (SPEC.md, "Manifest body"). Only the table that wrote them
     * can order them; within a sorted run the ranges of files never overlap.
     */
    public record KeyRange(byte[] min, byte[] max) implements Serializable {

        public KeyRange {
            if (min == null || max == null || min.length == 0 || max.length == 0) {
                throw new IllegalArgumentException(
                        "A key range needs a smallest and a largest key");
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof KeyRange other
                    && Arrays.equals(min, other.min)
                    && Arrays.equals(max, other.max);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(min) + Arrays.hashCode(max);
        }

        @Override
        public String toString() {
            return "KeyRange[" + min.length + " and " + max.length + " bytes]";
        }
    }

    public DataFile {
        if (fileName == null || fileName.isEmpty() || fileName.contains("/")) {
            throw new IllegalArgumentException("Invalid data file name: " + fileName);
        }
        if (content == null) {
            throw new IllegalArgumentException("Data file " + fileName + " has no content");
        }
        if (fileSize < 0 || rowCount < 0 || level < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid data file %s: size %d, rows %d, level %d",
                            fileName, fileSize, rowCount, level));
        }
    }
}
