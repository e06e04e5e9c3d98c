package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.S3Options;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.core.fs.Path;

/**
 * The one atomic step of a commit: publishes a new metadata file of a table (a snapshot, or a
 * schema version) exclusively, so that of two committers creating the same file exactly one wins
 * and readers see the whole file or none. Everything a commit writes before this step is
 * unreferenced until it succeeds. A store gets its own implementation of this seam, chosen by the
 * table location's scheme in {@link #forLocation}: exclusive creation on file systems with hard
 * links (local) or a rename that refuses an existing target (HDFS), a conditional put on
 * S3-compatible object stores.
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

    /**
     * Checks, before the first commit, that this step can work under {@code dir} (a warehouse, a
     * table): on an object store, that the store is reachable with the settings given and honours
     * conditional puts. Cached per store; nothing to check on a file system.
     *
     * @throws IOException naming the location and the cause otherwise
     */
    default void verify(Path dir) throws IOException {}

    /**
     * The publish step for tables at {@code location}: a conditional put for {@code s3://}, {@code
     * s3a://} and {@code s3p://} (reaching the store with {@code io}'s {@link FileIO#storeOptions}
     * over Flink's configuration), exclusive creation through {@code io} elsewhere. This is the one
     * place the step is chosen: a lock-based step (table option {@code commit.lock}, for stores
     * without conditional puts) would be chosen here.
     */
    static SnapshotCommit forLocation(FileIO io, Path location) {
        if (S3Options.isObjectStore(location)) {
            return new ObjectStoreSnapshotCommit(io);
        }
        return forFileSystem(io);
    }

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
