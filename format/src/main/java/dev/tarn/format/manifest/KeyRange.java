package dev.tarn.format.manifest;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The smallest and largest primary key in a data file of a primary-key table, each the bytes of a
 * binary row of the key columns (SPEC.md, "Manifest body"). Only the table that wrote them can
 * order them; within a sorted run the ranges of files never overlap.
 */
public record KeyRange(byte[] min, byte[] max) implements Serializable {

    public KeyRange {
        if (min == null || max == null || min.length == 0 || max.length == 0) {
            throw new IllegalArgumentException("A key range needs a smallest and a largest key");
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
