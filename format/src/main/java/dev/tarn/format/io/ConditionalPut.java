package dev.tarn.format.io;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A put that creates an object only if none is at its key ({@code If-None-Match: *}), with the
 * retries an object store needs. The store answers 412 when an object is there: another committer
 * won. 409 (a conflicting put in flight), 429 and 503 (throttling) mean the put did not happen and
 * are retried with backoff; other 5xx answers and I/O errors after the request was sent leave the
 * outcome unknown, so a later 412 may be this put's own object, and is resolved by comparing the
 * object with the content. Errors that retrying cannot cure (missing bucket, refused credentials)
 * fail at once with a message naming bucket, key and cause.
 */
final class ConditionalPut {

    /** Attempts per put; with the backoff below, about three seconds of a failing store. */
    static final int MAX_ATTEMPTS = 6;

    /** First backoff, doubled per attempt, with up to as much jitter again. */
    private static final long BACKOFF_MILLIS = 50;

    private final S3Client client;
    private final S3Settings settings;

    ConditionalPut(S3Client client, S3Settings settings) {
        this.client = client;
        this.settings = settings;
    }

    /**
     * @return true if this call created the object; false if another object is at the key
     * @throws IOException naming bucket, key and cause if the store refused the put, or if its
     *     outcome is unknown (then the object may exist)
     */
    boolean create(String bucket, String key, byte[] content) throws IOException {
        boolean maybeSent = false;
        for (int attempt = 1; ; attempt++) {
            Exception failure;
            try {
                client.putObject(
                        PutObjectRequest.builder().bucket(bucket).key(key).ifNoneMatch("*").build(),
                        RequestBody.fromBytes(content));
                return true;
            } catch (S3Exception e) {
                int status = e.statusCode();
                if (status == 412) {
                    return maybeSent && isOwn(bucket, key, content);
                }
                if (status != 409 && status != 429 && status < 500) {
                    throw refused(bucket, key, e);
                }
                maybeSent |= status != 409 && status != 429 && status != 503;
                failure = e;
            } catch (SdkClientException e) {
                maybeSent |= !neverSent(e);
                failure = e;
            }
            if (attempt == MAX_ATTEMPTS) {
                throw new IOException(
                        String.format(
                                "Cannot create s3://%s/%s at %s after %d attempts%s: %s%s",
                                bucket,
                                key,
                                settings.describeEndpoint(),
                                attempt,
                                maybeSent ? " (it may have been created)" : "",
                                describe(failure),
                                settings.unsetKeys()),
                        failure);
            }
            backoff(attempt);
        }
    }

    /** Whether the object at the key holds exactly {@code content}: an earlier attempt's. */
    private boolean isOwn(String bucket, String key, byte[] content) throws IOException {
        try {
            byte[] there =
                    client.getObjectAsBytes(
                                    GetObjectRequest.builder().bucket(bucket).key(key).build())
                            .asByteArray();
            return Arrays.equals(there, content);
        } catch (NoSuchKeyException e) {
            throw new IOException(
                    String.format(
                            "Cannot tell whether s3://%s/%s was created: the store refused it as"
                                    + " existing, then had no such object",
                            bucket, key),
                    e);
        } catch (S3Exception | SdkClientException e) {
            throw new IOException(
                    String.format(
                            "Cannot tell whether s3://%s/%s was created: reading it back failed:"
                                    + " %s",
                            bucket, key, describe(e)),
                    e);
        }
    }

    /** An error retrying cannot cure, worded for the person who configured the store. */
    IOException refused(String bucket, String key, S3Exception e) {
        String code = e.awsErrorDetails() != null ? e.awsErrorDetails().errorCode() : null;
        String cause = describe(e);
        String message;
        if ("NoSuchBucket".equals(code) || (e.statusCode() == 404 && code == null)) {
            message =
                    String.format(
                            "Cannot write s3://%s/%s: bucket %s does not exist at %s (%s)",
                            bucket, key, bucket, settings.describeEndpoint(), cause);
        } else if (e.statusCode() == 403) {
            message =
                    String.format(
                            "Cannot write s3://%s/%s: %s refused the credentials (%s); check"
                                    + " 's3.access-key' and 's3.secret-key', or the default"
                                    + " credential chain when they are not set",
                            bucket, key, settings.describeEndpoint(), cause);
        } else {
            message =
                    String.format(
                            "Cannot write s3://%s/%s at %s: %s",
                            bucket, key, settings.describeEndpoint(), cause);
        }
        return new IOException(message + settings.unsetKeys(), e);
    }

    /** Status and error code for a store's answer; the class and message for a client error. */
    String describe(Exception e) {
        if (e instanceof S3Exception s3) {
            String code = s3.awsErrorDetails() != null ? s3.awsErrorDetails().errorCode() : null;
            return "HTTP " + s3.statusCode() + (code != null ? " " + code : "");
        }
        if (neverSent(e)) {
            return "cannot reach the endpoint " + settings.describeEndpoint() + ": " + rootCause(e);
        }
        return rootCause(e);
    }

    /** A connection that was never made: the request cannot have reached the store. */
    private static boolean neverSent(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    static void backoff(int attempt) throws IOException {
        long wait = BACKOFF_MILLIS << (attempt - 1);
        try {
            Thread.sleep(wait + ThreadLocalRandom.current().nextLong(wait + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while retrying a conditional put", e);
        }
    }
}
