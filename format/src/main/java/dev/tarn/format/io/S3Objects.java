package dev.tarn.format.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Tarn's small metadata objects on an S3-compatible store, read and written with one request each
 * through the AWS SDK: a GET (404: no such file), a PUT (atomic for readers, so a replacement needs
 * no temporary object), and the conditional PUT of the commit step. Through a file system layer the
 * same would cost a HEAD before each GET, and a LIST and a marker cleanup around each PUT. Data
 * files keep going through Flink's S3 file system, whose multipart uploads suit them.
 */
final class S3Objects {

    private final S3Client client;
    private final S3Settings settings;

    S3Objects(S3Client client, S3Settings settings) {
        this.client = client;
        this.settings = settings;
    }

    /** Over the process's shared client for {@code storeOptions} over Flink's configuration. */
    static S3Objects shared(Map<String, String> storeOptions) {
        S3Settings settings = S3Settings.resolve(storeOptions);
        return new S3Objects(S3Clients.shared(settings), settings);
    }

    /**
     * @throws FileNotFoundException if no object is at the path
     */
    byte[] read(Path path) throws IOException {
        String bucket = bucket(path);
        String key = key(path);
        for (int attempt = 1; ; attempt++) {
            try {
                return client.getObjectAsBytes(
                                GetObjectRequest.builder().bucket(bucket).key(key).build())
                        .asByteArray();
            } catch (NoSuchKeyException e) {
                throw new FileNotFoundException(path + " does not exist");
            } catch (S3Exception e) {
                if (e.statusCode() == 404) {
                    throw new FileNotFoundException(path + " does not exist");
                }
                retryOrThrow(e, attempt, bucket, key);
            } catch (SdkClientException e) {
                retryOrThrow(e, attempt, bucket, key);
            }
        }
    }

    /** Creates or replaces the object; readers see the old object or the new one. */
    void write(Path path, byte[] content) throws IOException {
        String bucket = bucket(path);
        String key = key(path);
        for (int attempt = 1; ; attempt++) {
            try {
                client.putObject(
                        PutObjectRequest.builder().bucket(bucket).key(key).build(),
                        RequestBody.fromBytes(content));
                return;
            } catch (S3Exception | SdkClientException e) {
                retryOrThrow(e, attempt, bucket, key);
            }
        }
    }

    /** Deletes the object if it is there (a missing key is not an error to the store). */
    void delete(Path path) throws IOException {
        String bucket = bucket(path);
        String key = key(path);
        for (int attempt = 1; ; attempt++) {
            try {
                client.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key).build());
                return;
            } catch (S3Exception | SdkClientException e) {
                retryOrThrow(e, attempt, bucket, key);
            }
        }
    }

    /**
     * Creates the object unless one is there, once the store is proven to honour the condition
     * ({@link ConditionalPutProbe}).
     *
     * @return false if an object is there (another committer's)
     */
    boolean createIfAbsent(Path path, byte[] content) throws IOException {
        String bucket = bucket(path);
        String key = key(path);
        int slash = key.lastIndexOf('/');
        ConditionalPutProbe.check(
                client, settings, bucket, slash < 0 ? "" : key.substring(0, slash));
        return new ConditionalPut(client, settings).create(bucket, key, content);
    }

    /**
     * Proves the store reachable and honouring conditional puts, with a probe under {@code dir}.
     */
    void verify(Path dir) throws IOException {
        ConditionalPutProbe.check(client, settings, bucket(dir), key(dir));
    }

    /** Retries what may pass (throttling, 5xx, I/O); fails at once on what cannot. */
    private void retryOrThrow(Exception e, int attempt, String bucket, String key)
            throws IOException {
        ConditionalPut put = new ConditionalPut(client, settings);
        if (e instanceof S3Exception s3 && s3.statusCode() != 429 && s3.statusCode() < 500) {
            throw put.refused(bucket, key, s3);
        }
        if (attempt >= ConditionalPut.MAX_ATTEMPTS) {
            throw new IOException(
                    String.format(
                            "Cannot reach s3://%s/%s at %s after %d attempts: %s%s",
                            bucket,
                            key,
                            settings.describeEndpoint(),
                            attempt,
                            put.describe(e),
                            settings.unsetKeys()),
                    e);
        }
        ConditionalPut.backoff(attempt);
    }

    static String bucket(Path path) {
        URI uri = path.toUri();
        String bucket = uri.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException(
                    "Object store path " + path + " names no bucket: use s3://<bucket>/<key>");
        }
        return bucket;
    }

    static String key(Path path) {
        String key = path.toUri().getPath();
        return key.startsWith("/") ? key.substring(1) : key;
    }
}
