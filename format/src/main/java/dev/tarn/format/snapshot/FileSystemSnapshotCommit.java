package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.core.fs.Path;

/**
 * {@link SnapshotCommit} on a file system: writes the content to a hidden temporary file beside the
 * target, then gives it the target's name without replacing anything. On a file system with hard
 * links (local, POSIX) that is a link, atomic and exclusive; elsewhere a rename, exclusive where
 * the rename refuses an existing target (HDFS). Object stores have neither and need their own
 * implementation (a conditional put).
 */
final class FileSystemSnapshotCommit implements SnapshotCommit {

    private static final long serialVersionUID = 1L;

    private final FileIO io;

    FileSystemSnapshotCommit(FileIO io) {
        this.io = io;
    }

    @Override
    public boolean publish(Path path, byte[] content) throws IOException {
        if (io.exists(path)) {
            return false;
        }
        Path tmp = new Path(path.getParent(), FileIO.temporaryName(path.getName()));
        try {
            try (OutputStream out = io.newOutputStream(tmp)) {
                out.write(content);
            }
            try {
                return io.link(tmp, path);
            } catch (UnsupportedOperationException noLinks) {
                return io.rename(tmp, path);
            }
        } finally {
            try {
                io.delete(tmp, false);
            } catch (IOException ignored) {
                // A leftover temporary file is ignored by readers (its name starts with '.').
            }
        }
    }
}
