package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.core.fs.Path;

/**
 * The one atomic step of a commit: publishes a new metadata file of a table (a snapshot, or a
 * schema version) exclusively, so that of two committers creating the same file exactly one wins
 * and readers see the whole file or none. Everything a commit writes before this step is
 * unreferenced until it succeeds. A store gets its own implementation of this seam; {@link
 * #forFileSystem} is the one for file systems with hard links (local) or a rename that refuses an
 * existing target (HDFS).
 */
public interface SnapshotCommit extends Serializable {

    /**
     * Creates {@code path} with {@code content} unless a file is already there.
     *
     * @return true if this call created the file; false if another committer's file is there (it is
     *     left unchanged, and nothing else is left behind)
     * @throws IOException if the outcome is not known to be either; the caller must then treat the
     *     file as possibly created
     */
    boolean publish(Path path, byte[] content) throws IOException;

    /** Exclusive creation on a file system through {@code io}: a hard link, else a rename. */
    static SnapshotCommit forFileSystem(FileIO io) {
        return new FileSystemSnapshotCommit(io);
    }

    /**
     * {@code unlocked}, or where {@code options} ask for a commit lock ({@link CommitLockOptions})
     * a publish under the table's lock through {@code io}, which then need not be exclusive itself.
     *
     * @param table how messages name the table
     * @param location the table's location, which the lock is for
     * @throws IllegalArgumentException naming the table, the option and the value if a lock option
     *     is unknown, missing or invalid
     */
    static SnapshotCommit withLock(
            SnapshotCommit unlocked,
            FileIO io,
            String table,
            Path location,
            Map<String, String> options) {
        return CommitLockOptions.lock(table, location.toString(), options)
                .<SnapshotCommit>map(lock -> new LockedSnapshotCommit(io, lock))
                .orElse(unlocked);
    }
}
