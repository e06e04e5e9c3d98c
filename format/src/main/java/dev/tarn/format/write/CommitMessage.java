package dev.tarn.format.write;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import java.io.Serializable;
import java.util.List;

/**
 * The files one writer prepared in one bucket of one partition for one commit. The files exist on
 * storage but belong to no snapshot until a {@code TableCommit} publishes the message.
 *
 * @param totalBuckets the bucket count the rows were hashed with (-1: no bucketing)
 * @param newFiles files to add
 * @param deletedFiles files to remove (rewritten by compaction); they must still be live
 */
public record CommitMessage(
        Partition partition,
        int bucket,
        int totalBuckets,
        List<DataFile> newFiles,
        List<DataFile> deletedFiles)
        implements Serializable {

    public CommitMessage {
        newFiles = List.copyOf(newFiles);
        deletedFiles = List.copyOf(deletedFiles);
    }

    public static CommitMessage append(
            Partition partition, int bucket, int totalBuckets, List<DataFile> newFiles) {
        return new CommitMessage(partition, bucket, totalBuckets, newFiles, List.of());
    }

    public boolean isEmpty() {
        return newFiles.isEmpty() && deletedFiles.isEmpty();
    }
}
