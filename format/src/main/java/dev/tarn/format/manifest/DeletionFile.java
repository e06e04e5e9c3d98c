package dev.tarn.format.manifest;

import java.io.Serializable;

/**
 * Where the deletion vector of one data file lies (SPEC.md, "Deletion vectors"): an index file of
 * the table's {@code index/} directory, the vector's blob offset and length in it, and the number
 * of rows the vector deletes. Two vectors are the same exactly when their places are: index files
 * are never rewritten, so a commit tells a vector it read from one written since by its place
 * alone.
 *
 * @param indexFile the index file's name in {@code <table>/index/}
 */
public record DeletionFile(String indexFile, long offset, long length, long cardinality)
        implements Serializable {

    public DeletionFile {
        if (indexFile == null || indexFile.isEmpty()) {
            throw new IllegalArgumentException(
                    "A deletion vector needs the index file it lies in, got '" + indexFile + "'");
        }
        if (offset < 0 || length <= 0 || cardinality < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Deletion vector in index file %s has offset %d, length %d and"
                                    + " cardinality %d: the offset must be at least 0, the length"
                                    + " and the cardinality at least 1",
                            indexFile, offset, length, cardinality));
        }
    }

    @Override
    public String toString() {
        return indexFile + "@" + offset + "+" + length + " (" + cardinality + " rows)";
    }
}
