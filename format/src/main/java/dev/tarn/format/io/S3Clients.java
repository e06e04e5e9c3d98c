package dev.tarn.format.io;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 clients of this process, one per {@link S3Settings}, made on first use and shared by every
 * table and task that uses the same settings (a client holds a connection pool and credentials; a
 * table shipped to a task carries only its settings). The SDK's own retries are off: {@link
 * ConditionalPut} retries itself, because only it knows whether a retried put that finds the object
 * there found its own.
 */
final class S3Clients {

    /** Commits are small PUTs; a store that takes longer than this is treated as failing. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private static final Map<S3Settings, S3Client> CLIENTS = new ConcurrentHashMap<>();

    private S3Clients() {}

    static S3Client shared(S3Settings settings) {
        return CLIENTS.computeIfAbsent(settings, s -> build(s, List.of()));
    }

    /**
     * A new client; {@code interceptors} see every request (tests inject faults with them).
     *
     * @throws IllegalArgumentException naming the option if the endpoint is not a URI
     */
    static S3Client build(S3Settings settings, List<ExecutionInterceptor> interceptors) {
        AwsCredentialsProvider credentials =
                settings.accessKey() != null
                        ? StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(
                                        settings.accessKey(), settings.secretKey()))
                        : DefaultCredentialsProvider.builder().build();
        var builder =
                S3Client.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .region(Region.of(settings.region()))
                        .credentialsProvider(credentials)
                        .forcePathStyle(settings.pathStyleAccess())
                        .overrideConfiguration(
                                o ->
                                        o.retryStrategy(AwsRetryStrategy.doNotRetry())
                                                .apiCallTimeout(CALL_TIMEOUT)
                                                .executionInterceptors(interceptors));
        if (settings.endpoint() != null) {
            try {
                builder.endpointOverride(URI.create(settings.endpoint()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Invalid option 's3.endpoint' = '"
                                + settings.endpoint()
                                + "': not a URI such as 'http://127.0.0.1:9000'",
                        e);
            }
        }
        return builder.build();
    }
}
