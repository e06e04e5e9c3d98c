package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.Serializable;
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
}
