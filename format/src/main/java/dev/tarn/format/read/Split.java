package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import java.io.Serializable;
import java.util.List;

/**
 * A unit of reading: some files of one bucket of one partition, as of one snapshot, and how to read
 * them ({@link Kind}). All files of a split are read by one reader, in list order.
 */
public record Split(
        long snapshotId,
        Partition partition,
        int bucket,
        int totalBuckets,
        List<DataFile> files,
        Kind kind)
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
        RETRACT
    }

    public Split {
        files = List.copyOf(files);
    }

    /** A split of a snapshot's current rows. */
    public Split(
            long snapshotId,
            Partition partition,
            int bucket,
            int totalBuckets,
            List<DataFile> files) {
        this(snapshotId, partition, bucket, totalBuckets, files, Kind.SNAPSHOT);
    }

    public long rowCount() {
        return files.stream().mapToLong(DataFile::rowCount).sum();
    }
}
