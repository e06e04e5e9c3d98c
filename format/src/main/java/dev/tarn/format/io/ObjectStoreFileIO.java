package dev.tarn.format.io;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * {@link FileIO} of an S3-compatible object store: Tarn's small metadata objects are read, replaced
 * and created conditionally, and deleted where the caller needs no answer, with one request each
 * through {@link S3Objects}; data files, listings, other deletes and renames go through Flink's S3
 * file system as in {@link FlinkFileIO}, whose multipart uploads suit large files. It carries the
 * object-store settings it was given.
 */
final class ObjectStoreFileIO extends FlinkFileIO {

    private static final long serialVersionUID = 1L;

    private final HashMap<String, String> storeOptions;

    /** Made on first use: a client is not serializable. */
    @Nullable private transient S3Objects s3;

    ObjectStoreFileIO(Map<String, String> storeOptions) {
        this.storeOptions = new HashMap<>(storeOptions);
    }

    private S3Objects s3() {
        if (s3 == null) {
            s3 = S3Objects.shared(storeOptions);
        }
        return s3;
    }

    @Override
    public Map<String, String> storeOptions() {
        return Collections.unmodifiableMap(storeOptions);
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return s3().createIfAbsent(path, content);
    }

    @Override
    public void checkCreateIfAbsent(Path dir) throws IOException {
        s3().verify(dir);
    }

    /** One PUT, atomic for readers: a temporary object and a rename would be a copy. */
    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        s3().write(path, content);
    }

    /** One DELETE: an object store deletes a missing key without complaint. */
    @Override
    public void deleteIfExists(Path path) throws IOException {
        s3().delete(path);
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        return s3().read(path);
    }
}
