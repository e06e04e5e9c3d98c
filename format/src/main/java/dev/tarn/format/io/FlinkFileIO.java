package dev.tarn.format.io;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * {@link FileIO} over Flink's {@link FileSystem}, so local files, HDFS and Flink's S3 plugins all
 * work. Hard links exist on the local file system only; atomic replacement of a file (for hints) is
 * an atomic move there and a delete and rename elsewhere. On S3-compatible stores Tarn's small
 * metadata objects are read and written with one request each through {@link S3Objects} (data files
 * still go through Flink's S3 file system). Made by {@link FileIO#flinkFileSystems}; it carries the
 * object-store settings it was given.
 */
final class FlinkFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    private final HashMap<String, String> storeOptions;

    /** Metadata objects on S3, made on first use: a client is not serializable. */
    @Nullable private transient S3Objects s3;

    FlinkFileIO() {
        this(Map.of());
    }

    FlinkFileIO(Map<String, String> storeOptions) {
        this.storeOptions = new HashMap<>(storeOptions);
    }

    @Override
    public Map<String, String> storeOptions() {
        return Collections.unmodifiableMap(storeOptions);
    }

    @Override
    public FileIO withFlinkConfiguration(ReadableConfig configuration) {
        Map<String, String> merged = new HashMap<>(S3Options.of(configuration));
        merged.putAll(storeOptions);
        return merged.equals(storeOptions) ? this : new FlinkFileIO(merged);
    }

    private static FileSystem fs(Path path) throws IOException {
        return path.getFileSystem();
    }

    private static boolean isLocal(Path path) throws IOException {
        return !fs(path).isDistributedFS() && "file".equals(fs(path).getUri().getScheme());
    }

    private S3Objects s3() {
        if (s3 == null) {
            s3 = S3Objects.shared(storeOptions);
        }
        return s3;
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        if (!S3Options.isObjectStore(path)) {
            return FileIO.super.createIfAbsent(path, content);
        }
        return s3().createIfAbsent(path, content);
    }

    @Override
    public void checkCreateIfAbsent(Path dir) throws IOException {
        if (!S3Options.isObjectStore(dir)) {
            FileIO.super.checkCreateIfAbsent(dir);
        }
        s3().verify(dir);
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
        if (!isLocal(target)) {
            throw new UnsupportedOperationException(
                    "File system " + fs(target).getUri() + " of " + target + " has no hard links");
        }
        try {
            Files.createLink(
                    Paths.get(target.toUri().getPath()), Paths.get(source.toUri().getPath()));
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        if (S3Options.isObjectStore(path)) {
            // One PUT, atomic for readers; a temporary file and a rename would be a copy.
            s3().write(path, content);
            return;
        }
        Path tmp = writeTemp(path, content);
        try {
            if (isLocal(path)) {
                Files.move(
                        Paths.get(tmp.toUri().getPath()),
                        Paths.get(path.toUri().getPath()),
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } else {
                fs(path).delete(path, false);
                if (!fs(path).rename(tmp, path)) {
                    throw new IOException("Cannot overwrite " + path + ": rename failed");
                }
            }
        } finally {
            if (fs(tmp).exists(tmp)) {
                fs(tmp).delete(tmp, false);
            }
        }
    }

    private Path writeTemp(Path target, byte[] content) throws IOException {
        Path tmp =
                new Path(
                        target.getParent(),
                        "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
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
        if (S3Options.isObjectStore(path)) {
            return s3().read(path);
        }
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
