package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * Local files as a store whose create-if-absent is not atomic (an object store without a
 * conditional put, reached through a file system): no hard links, and a rename that checks the
 * target, waits a moment, then replaces whatever is there. Two committers can both "win" a snapshot
 * id on it unless a commit lock excludes them.
 */
final class NonExclusiveFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    /** How long a rename takes between its check and its move: the window a race needs. */
    private static final long RENAME_MILLIS = 20;

    private final FileIO real = FileIO.flinkFileSystems();

    @Override
    public boolean link(Path source, Path target) {
        throw new UnsupportedOperationException("no hard links on " + target);
    }

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        if (!real.exists(from) || real.exists(to)) {
            return false;
        }
        try {
            Thread.sleep(RENAME_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        Files.move(
                Paths.get(from.toUri().getPath()),
                Paths.get(to.toUri().getPath()),
                StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    @Override
    public FSDataInputStream newInputStream(Path path) throws IOException {
        return real.newInputStream(path);
    }

    @Override
    public FSDataOutputStream newOutputStream(Path path) throws IOException {
        return real.newOutputStream(path);
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        real.overwrite(path, content);
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        return real.readAllBytes(path);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return real.exists(path);
    }

    @Override
    public FileStatus[] list(Path dir) throws IOException {
        return real.list(dir);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return real.status(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return real.delete(path, recursive);
    }

    @Override
    public void mkdirs(Path dir) throws IOException {
        real.mkdirs(dir);
    }
}
