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

    /** Whether a manifest entry adds a file to the table or deletes it. */
    public enum FileKind {
        ADD((byte) 0),
        DELETE((byte) 1);

        private final byte code;

        FileKind(byte code) {
            this.code = code;
        }

        public byte code() {
            return code;
        }

        public static FileKind fromCode(byte code) {
            for (FileKind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("Unknown file kind code " + code);
        }
    }

    /** Identifies the file across ADD and DELETE entries. */
    public record FileId(Partition partition, int bucket, String fileName) {}

    public FileId fileId() {
        return new FileId(partition, bucket, file.fileName());
    }

    public BucketId bucketId() {
        return new BucketId(partition, bucket);
    }
}
