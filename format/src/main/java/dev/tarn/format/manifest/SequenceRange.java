package dev.tarn.format.manifest;

import java.io.Serializable;

/** The smallest and largest sequence number of the rows in a file; min <= max. */
public record SequenceRange(long min, long max) implements Serializable {

    public SequenceRange {
        if (min > max) {
            throw new IllegalArgumentException(
                    "Sequence range [" + min + ", " + max + "] is empty");
        }
    }
}
