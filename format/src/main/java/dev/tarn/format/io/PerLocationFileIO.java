package dev.tarn.format.io;

import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The {@link FileIO} of {@link FileIO#flinkFileSystems}: serves each path with the implementation
 * chosen once for its location, the file system its scheme and authority name ({@link #choose}):
 * {@link ObjectStoreFileIO} on S3-compatible stores, {@link LocalFileIO} on local files, {@link
 * FlinkFileIO} on every other file system Flink has. Serializable with the tables it serves; the
 * choices are made again after deserialization.
 */
final class PerLocationFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    private final HashMap<String, String> storeOptions;

    /** The implementation chosen for each location, by scheme and authority. */
    private transient volatile ConcurrentHashMap<String, FileIO> chosen;

    PerLocationFileIO(Map<String, String> storeOptions) {
        this.storeOptions = new HashMap<>(storeOptions);
    }

    /** The implementation for {@code path}'s location, chosen on its first use. */
    FileIO of(Path path) throws IOException {
        URI uri = path.toUri();
        String location = uri.getScheme() + "://" + uri.getAuthority();
        ConcurrentHashMap<String, FileIO> all = chosen;
        if (all == null) {
            all = new ConcurrentHashMap<>();
            chosen = all;
        }
        FileIO io = all.get(location);
        if (io == null) {
            io = choose(path, storeOptions);
            FileIO raced = all.putIfAbsent(location, io);
            io = raced == null ? io : raced;
        }
        return io;
    }

    /**
     * The implementation for the location of {@code path}: an S3-compatible store by its scheme
     * ({@link S3Options#isObjectStore}), local files by the file system Flink resolves for it (a
     * path without a scheme is on Flink's default file system).
     *
     * @throws IOException if Flink has no file system for the path's scheme
     */
    static FileIO choose(Path path, Map<String, String> storeOptions) throws IOException {
        if (S3Options.isObjectStore(path)) {
            return new ObjectStoreFileIO(storeOptions);
        }
        FileSystem fs = path.getFileSystem();
        if (!fs.isDistributedFS() && "file".equals(fs.getUri().getScheme())) {
            return new LocalFileIO();
        }
        return new FlinkFileIO();
    }

    @Override
    public Map<String, String> storeOptions() {
        return Collections.unmodifiableMap(storeOptions);
    }

    @Override
    public FileIO withFlinkConfiguration(ReadableConfig configuration) {
        Map<String, String> merged = new HashMap<>(S3Options.of(configuration));
        merged.putAll(storeOptions);
        return merged.equals(storeOptions) ? this : new PerLocationFileIO(merged);
    }

    @Override
    public FSDataInputStream newInputStream(Path path) throws IOException {
        return of(path).newInputStream(path);
    }

    @Override
    public FSDataOutputStream newOutputStream(Path path) throws IOException {
        return of(path).newOutputStream(path);
    }

    @Override
    public boolean link(Path source, Path target) throws IOException {
        return of(target).link(source, target);
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return of(path).createIfAbsent(path, content);
    }

    @Override
    public void checkCreateIfAbsent(Path dir) throws IOException {
        of(dir).checkCreateIfAbsent(dir);
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        of(path).overwrite(path, content);
    }

    @Override
    public void overwrite(Path path, Content content) throws IOException {
        of(path).overwrite(path, content);
    }

    @Override
    public void writeNew(Path path, byte[] content) throws IOException {
        of(path).writeNew(path, content);
    }

    @Override
    public void replaceHint(Path path, byte[] content) throws IOException {
        of(path).replaceHint(path, content);
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        return of(path).readAllBytes(path);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return of(path).exists(path);
    }

    @Override
    public FileStatus[] list(Path dir) throws IOException {
        return of(dir).list(dir);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return of(path).status(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return of(path).delete(path, recursive);
    }

    @Override
    public void mkdirs(Path dir) throws IOException {
        of(dir).mkdirs(dir);
    }

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        return of(from).rename(from, to);
    }
}
