package dev.tarn.format.deletion;

/**
 * Where the deletion vector of one data file lies in an index file, as its footer records it: the
 * data file it applies to, the blob's offset and length in bytes, and the number of deleted rows.
 * Offset and length are what an Apache Iceberg delete file of the vector records as its content
 * offset and size.
 */
public record DeletionVectorBlob(String dataFile, long offset, long length, long cardinality) {

    public DeletionVectorBlob {
        if (dataFile == null || dataFile.isEmpty()) {
            throw new IllegalArgumentException(
                    "A deletion vector blob needs the data file it applies to, got '"
                            + dataFile
                            + "'");
        }
        if (offset < DeletionIndexFile.MAGIC.length) {
            throw new IllegalArgumentException(
                    "Deletion vector blob of data file "
                            + dataFile
                            + " has offset "
                            + offset
                            + ", before the first blob at "
                            + DeletionIndexFile.MAGIC.length);
        }
        if (length < DeletionVectorCodec.MIN_LENGTH || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Deletion vector blob of data file "
                            + dataFile
                            + " has length "
                            + length
                            + ", not between "
                            + DeletionVectorCodec.MIN_LENGTH
                            + " and "
                            + Integer.MAX_VALUE);
        }
        if (cardinality < 1) {
            throw new IllegalArgumentException(
                    "Deletion vector blob of data file "
                            + dataFile
                            + " has cardinality "
                            + cardinality
                            + ": a stored vector deletes at least one row");
        }
    }

    /** The offset of the first byte after the blob. */
    long end() {
        return offset + length;
    }
}
