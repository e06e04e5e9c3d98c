package dev.tarn.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.core.fs.BlockLocation;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local file system under the scheme {@value #SCHEME}, counting every call a client makes on it
 * (open, create, exists, status, list, delete, rename, mkdirs, block locations), so a benchmark can
 * tell how many requests a reader would send to an object store. Reads and writes of an open stream
 * are not calls. Every path it returns keeps the scheme, so a client that opens a listed file is
 * counted too. Each call counts in every {@link FileSystemRequests} whose directory holds its path.
 */
final class CountingFileSystem extends FileSystem {

    static final String SCHEME = "countfs";

    private static final List<FileSystemRequests> WATCHED = new CopyOnWriteArrayList<>();

    private final LocalFileSystem local = LocalFileSystem.getSharedInstance();

    /** Starts counting the calls on paths under {@code directory} (a local path). */
    static FileSystemRequests watch(java.nio.file.Path directory) {
        FileSystemRequests requests = new FileSystemRequests(directory.toAbsolutePath().toString());
        WATCHED.add(requests);
        return requests;
    }

    /** {@code directory} as a URI of this file system, without a trailing slash. */
    static String uri(java.nio.file.Path directory) {
        return SCHEME + "://" + directory.toAbsolutePath();
    }

    private static void count(String call, Path path) {
        String local = path.toUri().getPath();
        for (FileSystemRequests requests : WATCHED) {
            requests.count(call, local);
        }
    }

    private static Path counted(Path localPath) {
        return new Path(SCHEME, null, localPath.toUri().getPath());
    }

    private static FileStatus counted(FileStatus status) {
        return status == null ? null : new CountedStatus(status, counted(status.getPath()));
    }

    private static FileStatus local(FileStatus status) {
        return status instanceof CountedStatus counted ? counted.local() : status;
    }

    @Override
    public Path getWorkingDirectory() {
        return counted(local.getWorkingDirectory());
    }

    @Override
    public Path getHomeDirectory() {
        return counted(local.getHomeDirectory());
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        count("status", f);
        return counted(local.getFileStatus(f));
    }

    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
            throws IOException {
        count("block-locations", file.getPath());
        return local.getFileBlockLocations(local(file), start, len);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        count("open", f);
        return local.open(f, bufferSize);
    }

    @Override
    public FSDataInputStream open(Path f) throws IOException {
        count("open", f);
        return local.open(f);
    }

    @Override
    public boolean exists(Path f) throws IOException {
        count("exists", f);
        return local.exists(f);
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        count("list", f);
        FileStatus[] children = local.listStatus(f);
        if (children == null) {
            return null;
        }
        FileStatus[] statuses = new FileStatus[children.length];
        for (int i = 0; i < children.length; i++) {
            statuses[i] = counted(children[i]);
        }
        return statuses;
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        count("delete", f);
        return local.delete(f, recursive);
    }

    @Override
    public boolean mkdirs(Path f) throws IOException {
        count("mkdirs", f);
        return local.mkdirs(f);
    }

    @Override
    public FSDataOutputStream create(Path f, WriteMode overwriteMode) throws IOException {
        count("create", f);
        return local.create(f, overwriteMode);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        count("rename", src);
        return local.rename(src, dst);
    }

    @Override
    public boolean isDistributedFS() {
        return false;
    }

    /** A status of the local file system under a path of this one. */
    private record CountedStatus(FileStatus local, Path path) implements FileStatus {
        @Override
        public long getLen() {
            return local.getLen();
        }

        @Override
        public long getBlockSize() {
            return local.getBlockSize();
        }

        @Override
        public short getReplication() {
            return local.getReplication();
        }

        @Override
        public long getModificationTime() {
            return local.getModificationTime();
        }

        @Override
        public long getAccessTime() {
            return local.getAccessTime();
        }

        @Override
        public boolean isDir() {
            return local.isDir();
        }

        @Override
        public Path getPath() {
            return path;
        }
    }
}
