package dev.tarn.format.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

/**
 * Proves, once per client and bucket, that the store honours {@code If-None-Match: *}: a
 * conditional put of a fresh probe object must succeed and a second one onto the same key must be
 * refused. A store that accepts the second would let two committers both create one snapshot, so
 * Tarn refuses to commit there rather than race. The outcome is cached for the life of the process;
 * failures to reach the store are not, so a later attempt probes again.
 */
final class ConditionalPutProbe {

    /** Outcome per client and bucket: empty if honoured, else why commits are refused. */
    private static final Map<List<Object>, Optional<String>> OUTCOMES = new ConcurrentHashMap<>();

    private ConditionalPutProbe() {}

    /**
     * @param dirKey the key prefix (a table's snapshot directory, a warehouse) the probe object is
     *     written under, so permissions limited to it suffice
     * @throws IOException naming bucket, key and cause if the store cannot be written, or does not
     *     honour the condition
     */
    static void check(S3Client client, S3Settings settings, String bucket, String dirKey)
            throws IOException {
        List<Object> key = List.of(client, bucket);
        Optional<String> known = OUTCOMES.get(key);
        if (known == null) {
            known = probe(client, settings, bucket, dirKey);
            OUTCOMES.put(key, known);
        }
        if (known.isPresent()) {
            throw new IOException(known.get());
        }
    }

    private static Optional<String> probe(
            S3Client client, S3Settings settings, String bucket, String dirKey) throws IOException {
        String probeKey =
                (dirKey.isEmpty() || dirKey.endsWith("/") ? dirKey : dirKey + "/")
                        + ".tarn-conditional-put-probe-"
                        + UUID.randomUUID();
        ConditionalPut put = new ConditionalPut(client, settings);
        if (!put.create(bucket, probeKey, bytes("first"))) {
            throw new IOException(
                    String.format(
                            "Cannot probe s3://%s/%s at %s: a fresh probe object already exists",
                            bucket, probeKey, settings.describeEndpoint()));
        }
        try {
            if (!put.create(bucket, probeKey, bytes("second"))) {
                return Optional.empty();
            }
            return Optional.of(
                    String.format(
                            "Cannot commit to bucket %s at %s: the store does not honour"
                                    + " If-None-Match (a second conditional put of probe object"
                                    + " s3://%s/%s was accepted), so two committers could both"
                                    + " create one snapshot. Use a store that supports"
                                    + " conditional puts, or set table option 'commit.lock'"
                                    + " to commit under a lock instead",
                            bucket, settings.describeEndpoint(), bucket, probeKey));
        } finally {
            try {
                client.deleteObject(
                        DeleteObjectRequest.builder().bucket(bucket).key(probeKey).build());
            } catch (SdkException ignored) {
                // A leftover probe object is harmless: its name starts with '.'.
            }
        }
    }

    /** Forgets every outcome (tests that switch stores within one process). */
    static void forget() {
        OUTCOMES.clear();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
