package dev.tarn.format.write;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.VectorChange;
import java.io.Serializable;
import java.util.List;

/**
 * The files one writer prepared in one bucket of one partition for one commit. The files exist on
 * storage but belong to no snapshot until a {@code TableCommit} publishes the message.
 *
 * @param totalBuckets the bucket count the rows were hashed with (-1: no bucketing)
 * @param newFiles files to add
 * @param deletedFiles files to remove (rewritten by compaction); they must still be live
 * @param changelogFiles changelog files stored for streaming reads (SPEC.md, "Changelog files"); no
 *     part of the table's rows
 * @param vectors changes of the deletion vectors of the bucket's data files (SPEC.md, "Deletion
 *     vectors"), of live files, of new files, and for a compaction, of its inputs going
 */
public record CommitMessage(
        Partition partition,
        int bucket,
        int totalBuckets,
        List<DataFile> newFiles,
        List<DataFile> deletedFiles,
        List<DataFile> changelogFiles,
        List<VectorChange> vectors)
        implements Serializable {

    public CommitMessage {
        newFiles = List.copyOf(newFiles);
        deletedFiles = List.copyOf(deletedFiles);
        changelogFiles = List.copyOf(changelogFiles);
        vectors = List.copyOf(vectors);
        checkContent(partition, bucket, newFiles, false, "new files");
        checkContent(partition, bucket, deletedFiles, false, "deleted files");
        checkContent(partition, bucket, changelogFiles, true, "changelog files");
    }

    /**
     * Checks that {@code files} hold changelog content exactly if {@code changelog}: the commit
     * lists each list in its own manifests, by the list, so a file in the wrong one would turn
     * changes into rows of the table or the other way round.
     */
    private static void checkContent(
            Partition partition, int bucket, List<DataFile> files, boolean changelog, String list) {
        for (DataFile f : files) {
            if (f.content().isChangelog() != changelog) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot commit file %s of bucket %d of partition %s among the %s:"
                                        + " its content is %s",
                                f.fileName(), bucket, partition, list, f.content()));
            }
        }
    }

    /** A message without changes of deletion vectors. */
    public CommitMessage(
            Partition partition,
            int bucket,
            int totalBuckets,
            List<DataFile> newFiles,
            List<DataFile> deletedFiles,
            List<DataFile> changelogFiles) {
        this(partition, bucket, totalBuckets, newFiles, deletedFiles, changelogFiles, List.of());
    }

    /** A message without changelog files. */
    public CommitMessage(
            Partition partition,
            int bucket,
            int totalBuckets,
            List<DataFile> newFiles,
            List<DataFile> deletedFiles) {
        this(partition, bucket, totalBuckets, newFiles, deletedFiles, List.of());
    }

    /** This message with {@code files} as its changelog files. */
    public CommitMessage withChangelog(List<DataFile> files) {
        return new CommitMessage(
                partition, bucket, totalBuckets, newFiles, deletedFiles, files, vectors);
    }

    /** This message with {@code changes} as its changes of deletion vectors. */
    public CommitMessage withVectors(List<VectorChange> changes) {
        return new CommitMessage(
                partition, bucket, totalBuckets, newFiles, deletedFiles, changelogFiles, changes);
    }

    public static CommitMessage append(
            Partition partition, int bucket, int totalBuckets, List<DataFile> newFiles) {
        return new CommitMessage(partition, bucket, totalBuckets, newFiles, List.of());
    }

    public boolean isEmpty() {
        return newFiles.isEmpty()
                && deletedFiles.isEmpty()
                && changelogFiles.isEmpty()
                && vectors.isEmpty();
    }
}
