package dev.tarn.catalog;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * A {@link FileIO} over {@link FileIO#flinkFileSystems} that holds commits back: once {@link
 * #PUBLISHES_LEFT} snapshot files were created, creating another fails before it happens, as a
 * committer that dies after its checkpoint completed. Static, so that the copies shipped to a
 * MiniCluster job's tasks see the test's setting. Everything else passes through.
 */
final class HeldCommitFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    /** Snapshot files still allowed; every later one fails. */
    static final AtomicInteger PUBLISHES_LEFT = new AtomicInteger(Integer.MAX_VALUE);

    private final FileIO real = FileIO.flinkFileSystems();

    @Override
    public boolean link(Path source, Path target) throws IOException {
        if (target.getName().startsWith("snapshot-") && PUBLISHES_LEFT.getAndDecrement() <= 0) {
            throw new IOException("injected failure: commit held back before " + target);
        }
        return real.link(source, target);
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

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        return real.rename(from, to);
    }
}
