package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import org.apache.flink.core.fs.Path;

/**
 * {@link SnapshotCommit} on an S3-compatible object store: one conditional PUT ({@code
 * If-None-Match: *}, {@link FileIO#createIfAbsent}) that the store refuses with 412 if an object is
 * at the key, so of two committers exactly one creates {@code snapshot-<n>} and readers see the
 * whole object or none. Before its first publish to a bucket the I/O proves that the store honours
 * the condition, and refuses to commit where it does not.
 */
final class ObjectStoreSnapshotCommit implements SnapshotCommit {

    private static final long serialVersionUID = 1L;

    private final FileIO io;

    ObjectStoreSnapshotCommit(FileIO io) {
        this.io = io;
    }

    @Override
    public boolean publish(Path path, byte[] content) throws IOException {
        return io.createIfAbsent(path, content);
    }

    @Override
    public void verify(Path dir) throws IOException {
        io.checkCreateIfAbsent(dir);
    }
}
