package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.Partition;
import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * A unit of reading: some files of one bucket of one partition, as of one snapshot, and how to read
 * them ({@link Kind}). All files of a split are read by one reader, in list order, each without the
 * rows its deletion vector in {@code vectors} (by data file name, as of the snapshot) deletes.
 */
public record Split(
        long snapshotId,
        Partition partition,
        int bucket,
        int totalBuckets,
        List<DataFile> files,
        Kind kind,
        Map<String, DeletionFile> vectors)
        implements Serializable {

    /** How a split's files turn into rows. */
    public enum Kind {
        /** The current rows of the files (merged by key in a primary-key table), as INSERTs. */
        SNAPSHOT,
        /**
         * The changes one snapshot added: an append table's new rows as INSERTs; in a primary-key
         * table the newest of the snapshot's versions of each key, as an upsert or a DELETE.
         */
        DELTA,
        /** Stored changelog files, every change as it was written, with its own row kind. */
        CHANGELOG,
        /** The current rows of files an OVERWRITE removed, as DELETEs. */
        RETRACT,
        /**
         * The current rows of files of a primary-key bucket whose files are all kept by deletion
         * vectors (SPEC.md, "Reads with vectors"): no two of them hold a live row of one key, so
         * each file's rows but those its vector deletes are read on their own, file after file,
         * without merging, as INSERTs of the table's columns.
         */
        SNAPSHOT_BY_FILE
    }

    public Split {
        files = List.copyOf(files);
        vectors = Map.copyOf(vectors);
        if (!vectors.isEmpty()) {
            Set<String> names = new HashSet<>();
            files.forEach(f -> names.add(f.fileName()));
            for (String name : vectors.keySet()) {
                if (!names.contains(name)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Split of bucket %d of partition %s as of snapshot %d names the"
                                            + " deletion vector of data file %s, which is not one"
                                            + " of its files %s",
                                    bucket, partition, snapshotId, name, names));
                }
            }
        }
    }

    /** File names a split's text lists before it counts the rest. */
    private static final int NAMED_FILES = 8;

    /**
     * A line for logs and messages (Flink logs every split it hands a reader): the snapshot, kind,
     * partition, bucket and the first files' names, never the files' statistics.
     */
    @Override
    public String toString() {
        StringBuilder text =
                new StringBuilder("Split[snapshot ")
                        .append(snapshotId)
                        .append(", ")
                        .append(kind)
                        .append(", partition ")
                        .append(partition)
                        .append(", bucket ")
                        .append(bucket)
                        .append(" of ")
                        .append(totalBuckets)
                        .append(", ")
                        .append(files.size())
                        .append(files.size() == 1 ? " file: " : " files: ");
        for (int i = 0; i < Math.min(files.size(), NAMED_FILES); i++) {
            text.append(i == 0 ? "" : ", ").append(files.get(i).fileName());
        }
        if (files.size() > NAMED_FILES) {
            text.append(", ...");
        }
        if (!vectors.isEmpty()) {
            text.append("; ").append(vectors.size()).append(" with deletion vectors");
        }
        return text.append(']').toString();
    }

    /** A split without deletion vectors. */
    public Split(
            long snapshotId,
            Partition partition,
            int bucket,
            int totalBuckets,
            List<DataFile> files,
            Kind kind) {
        this(snapshotId, partition, bucket, totalBuckets, files, kind, Map.of());
    }

    /** A split of a snapshot's current rows, without deletion vectors. */
    public Split(
            long snapshotId,
            Partition partition,
            int bucket,
            int totalBuckets,
            List<DataFile> files) {
        this(snapshotId, partition, bucket, totalBuckets, files, Kind.SNAPSHOT);
    }

    /**
     * This split with {@code vectors} (by data file name) as its files' deletion vectors.
     *
     * @throws IllegalArgumentException naming the file if a vector is of a file not in the split
     */
    public Split withVectors(Map<String, DeletionFile> vectors) {
        return new Split(snapshotId, partition, bucket, totalBuckets, files, kind, vectors);
    }

    /** The deletion vector of {@code file}, or null if it has none (or is not in the split). */
    @Nullable
    public DeletionFile vector(DataFile file) {
        return vectors.get(file.fileName());
    }

    /**
     * The rows of the files less those their vectors delete: what a read returns at most (in a
     * split read merged, versions of one key count once each).
     */
    public long rowCount() {
        long deleted = vectors.values().stream().mapToLong(DeletionFile::cardinality).sum();
        return files.stream().mapToLong(DataFile::rowCount).sum() - deleted;
    }
}
