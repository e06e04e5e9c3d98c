package dev.tarn.format.snapshot;

import java.io.IOException;
import java.net.URI;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link SnapshotCommit} on an S3-compatible object store: one conditional PUT ({@code
 * If-None-Match: *}) that the store refuses with 412 if an object is at the key, so of two
 * committers exactly one creates {@code snapshot-<n>} and readers see the whole object or none.
 * Before its first publish to a bucket it proves the store honours the condition ({@link
 * ConditionalPutProbe}). It holds only its settings; the client is the process's shared one ({@link
 * S3Clients}), found again after the commit is shipped to a task.
 */
final class ObjectStoreSnapshotCommit implements SnapshotCommit {

    private static final long serialVersionUID = 1L;

    private final S3Settings settings;
    @Nullable private transient S3Client client;

    ObjectStoreSnapshotCommit(S3Settings settings) {
        this.settings = settings;
    }

    /** Over a client of the caller's (tests inject faults through its interceptors). */
    ObjectStoreSnapshotCommit(S3Settings settings, S3Client client) {
        this.settings = settings;
        this.client = client;
    }

    @Override
    public boolean publish(Path path, byte[] content) throws IOException {
        S3Client s3 = client();
        String bucket = bucket(path);
        String key = key(path);
        ConditionalPutProbe.check(s3, settings, bucket, parentKey(key));
        return new ConditionalPut(s3, settings).create(bucket, key, content);
    }

    @Override
    public void verify(Path dir) throws IOException {
        ConditionalPutProbe.check(client(), settings, bucket(dir), key(dir));
    }

    private S3Client client() {
        if (client == null) {
            client = S3Clients.shared(settings);
        }
        return client;
    }

    private static String bucket(Path path) {
        URI uri = path.toUri();
        String bucket = uri.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException(
                    "Object store path " + path + " names no bucket: use s3://<bucket>/<key>");
        }
        return bucket;
    }

    private static String key(Path path) {
        String key = path.toUri().getPath();
        return key.startsWith("/") ? key.substring(1) : key;
    }

    private static String parentKey(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    @Override
    public String toString() {
        return "conditional puts to " + settings;
    }
}
