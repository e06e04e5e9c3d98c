package dev.tarn.format.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.testing.FlinkS3Plugin;
import dev.tarn.testing.S3MockServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
class S3ObjectsTest {

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
        List<S3Objects> racers = new ArrayList<>();
        for (int r = 0; r < RACERS; r++) {
            // Each racer its own client, as separate jobs would have.
            racers.add(new S3Objects(S3Clients.build(settings, List.of()), settings));
        }
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path target = new Path("s3://" + BUCKET + "/race/snapshot/snapshot-" + round);
                CyclicBarrier start = new CyclicBarrier(RACERS);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int r = 0; r < RACERS; r++) {
                    S3Objects commit = racers.get(r);
                    byte[] content = ("racer " + r).getBytes(StandardCharsets.UTF_8);
                    outcomes.add(
                            pool.submit(
                                    () -> {
                                        start.await(30, TimeUnit.SECONDS);
                                        return commit.createIfAbsent(target, content);
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
    void twoWritersCommittingToOneTableOnS3LoseNoRowAndGetGaplessSnapshots() throws Exception {
        FlinkS3Plugin.initialize(FlinkS3Plugin.settings(server));
        try {
            Path location = new Path("s3://" + BUCKET + "/lake/db.db/t");
            FileIO io = FileIO.flinkFileSystems(FlinkS3Plugin.settings(server));
            TestTables.create(
                    io,
                    location,
                    TestTables.ID_V,
                    List.of(),
                    Map.of("commit.retry-wait", "1 ms", "commit.max-retries", "1000"));
            int writers = 2;
            int commits = 10;
            CyclicBarrier start = new CyclicBarrier(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> done = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                for (int c = 0; c < commits; c++) {
                    expected.add((writer * 1000L + c) + ",w" + writer);
                }
                done.add(
                        pool.submit(
                                () -> {
                                    // Each writer loads the table itself, as a separate job would.
                                    Table own = Table.load(io, location, "db.t");
                                    start.await(30, TimeUnit.SECONDS);
                                    TableCommit commit = own.newCommit("writer-" + writer);
                                    for (int c = 0; c < commits; c++) {
                                        var row = TestTables.row(writer * 1000L + c, "w" + writer);
                                        assertThat(
                                                        commit.commit(
                                                                        CommitRequest.of(
                                                                                c + 1,
                                                                                TestTables.write(
                                                                                        own,
                                                                                        List.of(
                                                                                                row))))
                                                                .snapshotId())
                                                .isPresent();
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            Table table = Table.load(io, location, "db.t");
            SnapshotManager snapshots = TableInternals.context(table).snapshotManager();
            assertThat(snapshots.latestId()).hasValue(writers * commits);
            for (long id = 1; id <= writers * commits; id++) {
                assertThat(snapshots.snapshot(id).records().total()).isEqualTo(id);
            }
            assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            FlinkS3Plugin.reset();
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
        S3Objects commit = new S3Objects(ignoring, settings);
        Path target = new Path("s3://" + BUCKET + "/ignoring/snapshot/snapshot-1");

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> commit.createIfAbsent(target, new byte[] {1}))
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
        S3Objects commit = new S3Objects(lossy, settings);
        Path mine = new Path("s3://" + BUCKET + "/lost/snapshot/snapshot-1");
        assertThat(commit.createIfAbsent(mine, "mine".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(lose).isFalse();

        // Another committer's object stays another's, lost answer or not.
        S3Objects other = new S3Objects(S3Clients.shared(settings), settings);
        Path theirs = new Path("s3://" + BUCKET + "/lost/snapshot/snapshot-2");
        assertThat(other.createIfAbsent(theirs, "theirs".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        lose.set(true);
        assertThat(commit.createIfAbsent(theirs, "mine".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(read("lost/snapshot/snapshot-2")).isEqualTo("theirs");
    }

    @Test
    void deleteRemovesAnObjectAndTakesAMissingOneQuietly() throws Exception {
        S3Objects objects = new S3Objects(S3Clients.shared(settings), settings);
        Path path = new Path("s3://" + BUCKET + "/deletes/pending/job/ckp-3");
        objects.write(path, "record".getBytes(StandardCharsets.UTF_8));
        assertThat(read("deletes/pending/job/ckp-3")).isEqualTo("record");

        objects.delete(path);
        objects.delete(path);

        assertThatThrownBy(() -> objects.read(path))
                .isInstanceOf(java.io.FileNotFoundException.class)
                .hasMessage(path + " does not exist");
    }

    @Test
    void aMissingBucketIsNamed() {
        S3Objects commit = new S3Objects(S3Clients.shared(settings), settings);
        assertThatThrownBy(
                        () ->
                                commit.createIfAbsent(
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
        S3Objects commit = new S3Objects(S3Clients.shared(wrong), wrong);
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
    void aFailureWithNoKeySetNamesTheKeysAndWhereTheyWereLookedFor() throws IOException {
        assumeTrue(System.getenv("FLINK_CONF_DIR") == null, "the message names FLINK_CONF_DIR");
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        // The request goes to a closed loopback port, never to AWS; the message is the settings'.
        S3Settings reachable =
                new S3Settings("http://127.0.0.1:" + closed, true, "key", "secret", "us-east-1");
        S3Settings none = new S3Settings(null, false, null, null, "us-east-1");
        S3Objects commit = new S3Objects(S3Clients.build(reachable, List.of()), none);
        String sources =
                "the catalog's options, the Flink configuration given to the catalog or table (a"
                        + " session's SET, an embedded program's Configuration) and the"
                        + " config.yaml of FLINK_CONF_DIR (not set)";

        assertThatThrownBy(() -> commit.verify(new Path("s3://" + BUCKET + "/unset")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Cannot create s3://commits/unset/.tarn-conditional-put-probe-")
                .hasMessageEndingWith(
                        " at AWS S3 (us-east-1) after 6 attempts: cannot reach the endpoint AWS S3"
                                + " (us-east-1): ConnectException: Connection refused. No"
                                + " 's3.endpoint', 's3.access-key' or 's3.secret-key' was set in "
                                + sources
                                + ", so Tarn used AWS S3 (us-east-1) and AWS's default credential"
                                + " chain");
        assertThat(new S3Settings(null, true, "k", "s", "eu-west-1").unsetKeys())
                .isEqualTo(
                        ". No 's3.endpoint' was set in "
                                + sources
                                + ", so Tarn used AWS S3 (eu-west-1)");
        assertThat(new S3Settings("http://minio:9000", true, null, null, "us-east-1").unsetKeys())
                .isEqualTo(
                        ". No 's3.access-key' or 's3.secret-key' was set in "
                                + sources
                                + ", so Tarn used AWS's default credential chain");
        assertThat(settings.unsetKeys()).isEmpty();
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
            S3Objects commit = new S3Objects(S3Clients.shared(refused), refused);
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
