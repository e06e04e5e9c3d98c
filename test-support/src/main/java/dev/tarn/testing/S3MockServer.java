package dev.tarn.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real S3-compatible server for tests and benchmarks: Adobe S3Mock (a Spring Boot application)
 * run as its own JVM on a free loopback port, from the class path this module's build writes, so
 * that its Spring and Jackson never meet Flink's on the caller's class path. S3Mock honours {@code
 * If-None-Match: *} on PutObject, atomically here because it serves one request at a time (its
 * check and write are separate steps, which two request threads could interleave). Every request it
 * serves is written to an access log ({@link #requests}), the server-side count of what clients
 * asked.
 *
 * <p>{@link #close} kills the process; a shutdown hook does too, so a failed or interrupted test
 * run leaves no server behind. Typical use: start in {@code @BeforeAll}, close in
 * {@code @AfterAll}.
 */
public final class S3MockServer implements AutoCloseable {

    /** S3Mock's Spring Boot start takes a few seconds; a loaded machine may take many more. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path root;
    private final Path accessLog;
    private final Thread hook;

    private S3MockServer(Process process, int port, Path root, Path accessLog) {
        this.process = process;
        this.port = port;
        this.root = root;
        this.accessLog = accessLog;
        this.hook = new Thread(process::destroyForcibly, "s3mock-shutdown-" + port);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts a server with {@code buckets} created, and waits until it answers.
     *
     * @throws IllegalStateException naming the port and the server's output if it does not start
     */
    public static S3MockServer start(String... buckets) throws IOException {
        int port = freePort();
        int spare = freePort();
        Path root = Files.createTempDirectory("s3mock-");
        Path logs = Files.createDirectories(root.resolve("logs"));
        Path data = Files.createDirectories(root.resolve("data"));
        // The server's temporary files (a file per upload, Tomcat's directories) go with its root.
        Path tmp = Files.createDirectories(root.resolve("tmp"));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Djava.io.tmpdir=" + tmp);
        command.add("-cp");
        command.add(resource("s3mock.classpath"));
        command.add("com.adobe.testing.s3mock.S3MockApplication");
        // The main connector serves plain HTTP on the port, with the one request thread below;
        // S3Mock's extra HTTP connector (its own thread pool) listens on a spare port, unused.
        command.add("--server.port=" + port);
        command.add("--server.ssl.enabled=false");
        command.add("--server.address=127.0.0.1");
        command.add("--com.adobe.testing.s3mock.httpPort=" + spare);
        command.add("--com.adobe.testing.s3mock.store.root=" + data);
        command.add("--com.adobe.testing.s3mock.store.initialBuckets=" + String.join(",", buckets));
        // S3Mock checks If-None-Match and then writes, and two requests on two threads both pass
        // the check (the race test sees two to four winners). One request thread makes check and
        // write one step, as they are on S3; clients still race over their own connections.
        command.add("--server.tomcat.threads.max=1");
        command.add("--server.tomcat.threads.min-spare=1");
        command.add("--server.tomcat.accesslog.enabled=true");
        command.add("--server.tomcat.accesslog.directory=" + logs);
        command.add("--server.tomcat.accesslog.prefix=access");
        command.add("--server.tomcat.accesslog.suffix=.log");
        command.add("--server.tomcat.accesslog.rotate=false");
        command.add("--server.tomcat.accesslog.buffered=false");
        command.add("--server.tomcat.accesslog.pattern=%m %U%q %s");
        command.add("--logging.level.root=WARN");
        Path output = root.resolve("server.out");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
        S3MockServer server = new S3MockServer(process, port, root, logs.resolve("access.log"));
        try {
            server.awaitReady(output);
        } catch (RuntimeException | IOException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** {@code http://127.0.0.1:<port>}, the value of {@code s3.endpoint}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /**
     * Every request served so far, oldest first, one line each: method, path with query, status,
     * e.g. {@code PUT /bucket/t/snapshot/snapshot-1 200}.
     */
    public List<String> requests() {
        try {
            return Files.exists(accessLog) ? Files.readAllLines(accessLog) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read S3Mock's access log " + accessLog, e);
        }
    }

    private void awaitReady(Path output) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "S3Mock exited with "
                                + process.exitValue()
                                + " before answering on port "
                                + port
                                + ": "
                                + Files.readString(output));
            }
            try {
                HttpURLConnection connection =
                        (HttpURLConnection) URI.create(endpoint() + "/").toURL().openConnection();
                connection.setConnectTimeout(1000);
                connection.setReadTimeout(5000);
                int status = connection.getResponseCode();
                try (InputStream ignored = connection.getErrorStream()) {
                    connection.disconnect();
                }
                if (status > 0) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while S3Mock starts", e);
            }
        }
        throw new IllegalStateException(
                "S3Mock did not answer on port "
                        + port
                        + " within "
                        + START_TIMEOUT
                        + ": "
                        + Files.readString(output));
    }

    /** Kills the server and deletes its files. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or ran already.
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory; the OS cleans it eventually.
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = S3MockServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "Resource "
                                + name
                                + " is missing: the build of tarn-test-support writes it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
