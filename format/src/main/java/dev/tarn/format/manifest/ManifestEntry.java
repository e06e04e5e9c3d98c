package dev.tarn.format.manifest;

import java.io.Serializable;

/**
 * One change to a table's set of files: {@code file} was added to or deleted from bucket {@code
 * bucket} of {@code partition}. {@code totalBuckets} is the bucket count the file was written for
 * (-1 for tables without bucketing).
 */
public record ManifestEntry(
        FileKind kind, Partition partition, int bucket, int totalBuckets, DataFile file)
        implements Serializable {

    /** Identifies the file across ADD and DELETE entries. */
    public record FileId(Partition partition, int bucket, String fileName) {}

    public FileId fileId() {
        return new FileId(partition, bucket, file.fileName());
    }

    public BucketId bucketId() {
        return new BucketId(partition, bucket);
    }
}
