package dev.tarn.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.testing.S3MockServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The object-store publish step against a real S3-compatible server (S3Mock, which honours {@code
 * If-None-Match}): racing committers, the probe, the retry after a lost answer, and the errors of a
 * wrong endpoint, a missing bucket and refused credentials.
 */
class ObjectStoreSnapshotCommitTest {

    private static final String BUCKET = "commits";
    private static final int ROUNDS = 50;
    private static final int RACERS = 4;

    private static S3MockServer server;
    private static S3Settings settings;

    @BeforeAll
    static void start() throws IOException {
        server = S3MockServer.start(BUCKET);
        settings = new S3Settings(server.endpoint(), true, "key", "secret", "us-east-1");
    }

    @AfterAll
    static void stop() {
        ConditionalPutProbe.forget();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void ofCommittersRacingForOneSnapshotExactlyOneWinsEveryRound() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        List<SnapshotCommit> racers = new ArrayList<>();
        for (int r = 0; r < RACERS; r++) {
            // Each racer its own client, as separate jobs would have.
            racers.add(
                    new ObjectStoreSnapshotCommit(settings, S3Clients.build(settings, List.of())));
        }
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path target = new Path("s3://" + BUCKET + "/race/snapshot/snapshot-" + round);
                CyclicBarrier start = new CyclicBarrier(RACERS);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int r = 0; r < RACERS; r++) {
                    SnapshotCommit commit = racers.get(r);
                    byte[] content = ("racer " + r).getBytes(StandardCharsets.UTF_8);
                    outcomes.add(
                            pool.submit(
                                    () -> {
                                        start.await(30, TimeUnit.SECONDS);
                                        return commit.publish(target, content);
                                    }));
                }
                List<Integer> winners = new ArrayList<>();
                for (int r = 0; r < RACERS; r++) {
                    if (outcomes.get(r).get(60, TimeUnit.SECONDS)) {
                        winners.add(r);
                    }
                }
                assertThat(winners).as("winners of round %d", round).hasSize(1);
                assertThat(read("race/snapshot/snapshot-" + round))
                        .as("object of round %d", round)
                        .isEqualTo("racer " + winners.get(0));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aStoreThatIgnoresTheConditionIsRefusedNamingCommitLock() {
        // S3Mock cannot be told to ignore If-None-Match, so the header is dropped on its way there:
        // the store then sees plain puts, as one without conditional puts does.
        S3Client ignoring =
                S3Clients.build(
                        settings,
                        List.of(
                                new ExecutionInterceptor() {
                                    @Override
                                    public SdkHttpRequest modifyHttpRequest(
                                            Context.ModifyHttpRequest context,
                                            ExecutionAttributes attributes) {
                                        return context.httpRequest().toBuilder()
                                                .removeHeader("If-None-Match")
                                                .build();
                                    }
                                }));
        SnapshotCommit commit = new ObjectStoreSnapshotCommit(settings, ignoring);
        Path target = new Path("s3://" + BUCKET + "/ignoring/snapshot/snapshot-1");

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> commit.publish(target, new byte[] {1}))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith(
                            "Cannot commit to bucket commits at " + server.endpoint())
                    .hasMessageContaining("the store does not honour If-None-Match")
                    .hasMessageContaining("s3://commits/ignoring/snapshot/.tarn-conditional-put")
                    .hasMessageContaining("set table option 'commit.lock'");
        }
        assertThatThrownBy(() -> read("ignoring/snapshot/snapshot-1"))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void aRetryAfterALostAnswerRecognizesItsOwnObject() throws Exception {
        // The store creates the object, but its answer is lost (turned into a 500): the retry is
        // refused with 412, and the object read back is this put's own.
        AtomicBoolean lose = new AtomicBoolean(true);
        S3Client lossy =
                S3Clients.build(
                        settings,
                        List.of(
                                new ExecutionInterceptor() {
                                    @Override
                                    public SdkHttpResponse modifyHttpResponse(
                                            Context.ModifyHttpResponse context,
                                            ExecutionAttributes attributes) {
                                        boolean put =
                                                context.httpRequest().method().name().equals("PUT");
                                        boolean snapshot =
                                                context.httpRequest()
                                                        .encodedPath()
                                                        .contains("snapshot-");
                                        if (put && snapshot && lose.getAndSet(false)) {
                                            return context.httpResponse().toBuilder()
                                                    .statusCode(500)
                                                    .build();
                                        }
                                        return context.httpResponse();
                                    }
                                }));
        SnapshotCommit commit = new ObjectStoreSnapshotCommit(settings, lossy);
        Path mine = new Path("s3://" + BUCKET + "/lost/snapshot/snapshot-1");
        assertThat(commit.publish(mine, "mine".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(lose).isFalse();

        // Another committer's object stays another's, lost answer or not.
        SnapshotCommit other = new ObjectStoreSnapshotCommit(settings, S3Clients.shared(settings));
        Path theirs = new Path("s3://" + BUCKET + "/lost/snapshot/snapshot-2");
        assertThat(other.publish(theirs, "theirs".getBytes(StandardCharsets.UTF_8))).isTrue();
        lose.set(true);
        assertThat(commit.publish(theirs, "mine".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(read("lost/snapshot/snapshot-2")).isEqualTo("theirs");
    }

    @Test
    void aMissingBucketIsNamed() {
        SnapshotCommit commit = new ObjectStoreSnapshotCommit(settings);
        assertThatThrownBy(
                        () ->
                                commit.publish(
                                        new Path("s3://no-such-bucket/t/snapshot-1"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Cannot write s3://no-such-bucket/t/.tarn-conditional-put-probe-")
                .hasMessageContaining(
                        ": bucket no-such-bucket does not exist at "
                                + server.endpoint()
                                + " (HTTP 404 NoSuchBucket)");
    }

    @Test
    void aWrongEndpointIsNamed() throws IOException {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        S3Settings wrong =
                new S3Settings("http://127.0.0.1:" + closed, true, "key", "secret", "us-east-1");
        SnapshotCommit commit = new ObjectStoreSnapshotCommit(wrong);
        assertThatThrownBy(() -> commit.verify(new Path("s3://" + BUCKET + "/lake")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Cannot create s3://commits/lake/.tarn-conditional-put-probe-")
                .hasMessageContaining(
                        "at http://127.0.0.1:"
                                + closed
                                + " after 6 attempts: cannot reach the"
                                + " endpoint http://127.0.0.1:"
                                + closed
                                + ": ConnectException");
    }

    @Test
    void refusedCredentialsAreNamed() throws IOException {
        // S3Mock accepts any key, so a loopback server answers as AWS does to an unknown key.
        com.sun.net.httpserver.HttpServer aws =
                com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        aws.createContext(
                "/",
                exchange -> {
                    byte[] body =
                            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error>"
                                            + "<Code>InvalidAccessKeyId</Code><Message>The AWS"
                                            + " Access Key Id you provided does not exist in our"
                                            + " records.</Message></Error>")
                                    .getBytes(StandardCharsets.UTF_8);
                    exchange.getRequestBody().readAllBytes();
                    exchange.getResponseHeaders().add("Content-Type", "application/xml");
                    exchange.sendResponseHeaders(403, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        aws.start();
        try {
            String endpoint = "http://127.0.0.1:" + aws.getAddress().getPort();
            S3Settings refused = new S3Settings(endpoint, true, "wrong", "key", "us-east-1");
            SnapshotCommit commit = new ObjectStoreSnapshotCommit(refused);
            assertThatThrownBy(() -> commit.verify(new Path("s3://" + BUCKET + "/lake")))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith(
                            "Cannot write s3://commits/lake/.tarn-conditional-put-probe-")
                    .hasMessageContaining(
                            ": "
                                    + endpoint
                                    + " refused the credentials (HTTP 403 InvalidAccessKeyId);"
                                    + " check 's3.access-key' and 's3.secret-key'");
        } finally {
            aws.stop(0);
        }
    }

    private static String read(String key) {
        return S3Clients.shared(settings)
                .getObjectAsBytes(GetObjectRequest.builder().bucket(BUCKET).key(key).build())
                .asUtf8String();
    }
}
