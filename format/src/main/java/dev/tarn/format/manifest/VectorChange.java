package dev.tarn.format.manifest;

import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * A change of one data file's deletion vector in a commit (SPEC.md, "Deletion vectors"): the vector
 * the writer started from and the one it replaces it with. The commit publishes the change only if
 * the table's vector of the file is still {@code before}, so a deletion that another commit made
 * meanwhile is never lost.
 *
 * @param dataFile the data file, in the message's bucket
 * @param before the file's vector the change was made on; null if it had none (a new file)
 * @param after the file's new vector; null when the file goes (a compaction's input)
 */
public record VectorChange(
        String dataFile, @Nullable DeletionFile before, @Nullable DeletionFile after)
        implements Serializable {

    public VectorChange {
        if (before == null && after == null) {
            throw new IllegalArgumentException(
                    "A vector change of data file " + dataFile + " needs a before or an after");
        }
    }
}
