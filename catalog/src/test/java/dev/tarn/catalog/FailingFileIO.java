package dev.tarn.catalog;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * A {@link FileIO} over {@link FileIO#flinkFileSystems} whose directory deletes and renames fail
 * while {@link #failing} is set, as a file system that refuses to change a directory would.
 * Everything else passes through.
 */
final class FailingFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    private final FileIO real = FileIO.flinkFileSystems();
    volatile boolean failing;

    private void maybeFail(String op, Path path) throws IOException {
        if (failing) {
            throw new IOException("injected failure: " + op + " " + path);
        }
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        maybeFail("delete", path);
        return real.delete(path, recursive);
    }

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        maybeFail("rename", from);
        return real.rename(from, to);
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
    public boolean link(Path source, Path target) throws IOException {
        return real.link(source, target);
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
    public void mkdirs(Path dir) throws IOException {
        real.mkdirs(dir);
    }
}
