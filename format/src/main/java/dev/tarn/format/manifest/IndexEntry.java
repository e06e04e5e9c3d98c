package dev.tarn.format.manifest;

/**
 * One entry of an index manifest (SPEC.md, "Deletion vectors"): the deletion vector of one live
 * data file of a snapshot.
 *
 * @param dataFile the data file's name in its bucket
 */
public record IndexEntry(Partition partition, int bucket, String dataFile, DeletionFile vector) {

    /** The data file the vector applies to. */
    public ManifestEntry.FileId fileId() {
        return new ManifestEntry.FileId(partition, bucket, dataFile);
    }
}
