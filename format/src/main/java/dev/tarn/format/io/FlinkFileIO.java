package dev.tarn.format.io;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * {@link FileIO} over a Flink {@link FileSystem} that has neither hard links nor conditional puts:
 * HDFS, and every other scheme Flink has a file system for but local files and S3-compatible
 * stores, which have their own ({@link LocalFileIO}, {@link ObjectStoreFileIO}, which extend this
 * one by what their store adds). A replacement writes a temporary file, deletes the old one and
 * renames the new one onto its name. Stateless; chosen per location by {@link PerLocationFileIO}.
 */
class FlinkFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    static FileSystem fs(Path path) throws IOException {
        return path.getFileSystem();
    }

    @Override
    public FSDataInputStream newInputStream(Path path) throws IOException {
        return fs(path).open(path);
    }

    @Override
    public FSDataOutputStream newOutputStream(Path path) throws IOException {
        return fs(path).create(path, FileSystem.WriteMode.NO_OVERWRITE);
    }

    @Override
    public boolean link(Path source, Path target) throws IOException {
        throw new UnsupportedOperationException(
                "File system " + fs(target).getUri() + " of " + target + " has no hard links");
    }

    /**
     * Writes {@code content} to a temporary file beside {@code path}, deletes {@code path} and
     * renames the temporary file onto it (a file system without an atomic replacing rename), and
     * deletes the temporary file if the move left it behind.
     */
    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        Path tmp = writeTemp(path, content);
        try {
            fs(path).delete(path, false);
            if (!fs(path).rename(tmp, path)) {
                throw new IOException("Cannot overwrite " + path + ": rename failed");
            }
        } finally {
            if (fs(tmp).exists(tmp)) {
                fs(tmp).delete(tmp, false);
            }
        }
    }

    private static Path writeTemp(Path target, byte[] content) throws IOException {
        Path tmp = new Path(target.getParent(), FileIO.temporaryName(target.getName()));
        try (OutputStream out = fs(tmp).create(tmp, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(content);
        } catch (IOException | RuntimeException e) {
            fs(tmp).delete(tmp, false);
            throw e;
        }
        return tmp;
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        try (InputStream in = newInputStream(path)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return fs(path).exists(path);
    }

    @Override
    public FileStatus[] list(Path dir) throws IOException {
        try {
            FileStatus[] children = fs(dir).listStatus(dir);
            return children == null ? new FileStatus[0] : children;
        } catch (FileNotFoundException e) {
            return new FileStatus[0];
        }
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return fs(path).getFileStatus(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return fs(path).delete(path, recursive);
    }

    @Override
    public void mkdirs(Path dir) throws IOException {
        if (!fs(dir).mkdirs(dir)) {
            throw new IOException("Cannot create directory " + dir);
        }
    }

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        if (exists(to)) {
            return false;
        }
        return fs(from).rename(from, to);
    }
}
