package dev.tarn.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads a table location as an Apache Iceberg table with Apache Spark in local mode, as another
 * engine would: Spark and Iceberg's Spark runtime run in a JVM of their own, started from the class
 * path that module {@code tarn-engine-readers} writes, so that they never share a class path with
 * Flink. A test that uses it depends on {@code tarn-engine-readers} (test scope, without its
 * dependencies): its jar holds the reader's main class and that class path.
 *
 * <p>A reader is a list of steps run in order in one Spark session (one JVM start, some seconds):
 * {@link #warehouse} (a Hadoop catalog {@code local} for tables Spark writes itself), {@link #view}
 * (a table location as a temporary view), {@link #sql} (a statement whose rows are dropped) and
 * {@link #query} (a statement whose rows {@link #run} returns, sorted, one string per row as {@code
 * [v1, v2, ...]}). Not thread-safe; each {@link #run} starts a new JVM.
 */
public final class SparkIcebergReader {

    /** The class path resource that {@code tarn-engine-readers} writes, and the root it lies in. */
    private static final String CLASSPATH = "dev/tarn/engines/spark.classpath";

    private static final String MAIN = "dev.tarn.engines.SparkIcebergQuery";

    /** Spark starts in about ten seconds; a loaded shared machine may take several times that. */
    private static final Duration TIMEOUT = Duration.ofSeconds(300);

    /** Lines of Spark's standard error that a failure quotes. */
    private static final int ERROR_TAIL_LINES = 40;

    /** The module options Spark's own launcher passes on Java 17. */
    private static final List<String> JAVA_OPTIONS =
            List.of(
                    "-Xmx768m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-Djdk.reflect.useDirectMethodHandle=false",
                    "-Dio.netty.tryReflectionSetAccessible=true",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
                    "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
                    "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED");

    private final List<String> steps = new ArrayList<>();
    private final List<Long> millis = new ArrayList<>();
    private int queries;

    /** Tables Spark creates as {@code local.<db>.<table>} live under {@code directory}. */
    public SparkIcebergReader warehouse(Path directory) {
        return step("--warehouse", directory.toAbsolutePath().toString());
    }

    /** The Iceberg table at {@code location} (a path or URI) as temporary view {@code name}. */
    public SparkIcebergReader view(String name, String location) {
        if (name.isEmpty() || name.contains("=")) {
            throw new IllegalArgumentException(
                    "Invalid view name '" + name + "': expected a SQL identifier");
        }
        return step("--view", name + "=" + location);
    }

    /** A statement whose rows are not returned (DDL, DML). */
    public SparkIcebergReader sql(String statement) {
        return step("--sql", statement);
    }

    /** A statement whose rows {@link #run} returns, in the order of the queries. */
    public SparkIcebergReader query(String statement) {
        queries++;
        return step("--query", statement);
    }

    /** The rows of the Iceberg table at {@code location}: {@code SELECT *}, sorted. */
    public static List<String> readTable(String location) {
        return new SparkIcebergReader().view("t", location).query("SELECT * FROM t").run().get(0);
    }

    /**
     * Runs the steps in a new Spark JVM and returns each query's rows, sorted.
     *
     * @throws IllegalStateException naming the steps, the exit code and the tail of Spark's
     *     standard error, if Spark fails or does not finish in time
     */
    public List<List<String>> run() {
        if (queries == 0) {
            throw new IllegalStateException("Nothing to read: the Spark reader has no query");
        }
        try {
            Path dir = Files.createTempDirectory("spark-reader-");
            try {
                return run(dir);
            } finally {
                Files.deleteIfExists(dir.resolve("out"));
                Files.deleteIfExists(dir.resolve("err"));
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start the Spark reader for " + steps, e);
        }
    }

    private List<List<String>> run(Path dir) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JAVA_OPTIONS);
        // Spark's scratch directories go where this JVM's temporary files go.
        command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        command.add("-cp");
        command.add(classPath());
        command.add(MAIN);
        command.addAll(steps);
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
        // Spark binds to loopback instead of looking up the host's address (and warning).
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process process = builder.start();
        boolean finished;
        try {
            finished = process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while Spark reads " + steps, e);
        }
        if (!finished) {
            process.destroyForcibly();
            throw failure("did not finish within " + TIMEOUT, err);
        }
        if (process.exitValue() != 0) {
            throw failure("exited with code " + process.exitValue(), err);
        }
        return results(Files.readAllLines(out, StandardCharsets.UTF_8));
    }

    /**
     * How long each query of the last {@link #run} took in Spark, in milliseconds, from planning to
     * its last row (not counting the JVM's and Spark's start).
     */
    public List<Long> queryMillis() {
        return List.copyOf(millis);
    }

    /** Splits the reader's output at its {@code == query N, M ms} lines. */
    private List<List<String>> results(List<String> lines) {
        List<List<String>> results = new ArrayList<>();
        millis.clear();
        for (String line : lines) {
            if (line.startsWith("== query ")) {
                results.add(new ArrayList<>());
                millis.add(
                        Long.parseLong(
                                line.substring(line.lastIndexOf(", ") + 2, line.length() - 3)));
            } else if (results.isEmpty()) {
                throw new IllegalStateException(
                        "Unexpected output of the Spark reader before its first query: " + line);
            } else {
                results.get(results.size() - 1).add(line);
            }
        }
        if (results.size() != queries) {
            throw new IllegalStateException(
                    "The Spark reader printed "
                            + results.size()
                            + " results for "
                            + queries
                            + " queries: "
                            + lines);
        }
        return results;
    }

    private IllegalStateException failure(String reason, Path err) throws IOException {
        List<String> lines = new ArrayList<>();
        if (Files.exists(err)) {
            // The messages, not the stack frames: Spark's traces run to hundreds of lines.
            for (String line : Files.readAllLines(err, StandardCharsets.UTF_8)) {
                String trimmed = line.trim();
                if (!trimmed.startsWith("at ") && !trimmed.matches("\\.\\.\\. \\d+ more")) {
                    lines.add(line);
                }
            }
        }
        List<String> tail =
                lines.subList(Math.max(0, lines.size() - ERROR_TAIL_LINES), lines.size());
        return new IllegalStateException(
                "Spark failed to run "
                        + steps
                        + ": it "
                        + reason
                        + "; the end of its standard error (without stack frames):\n"
                        + String.join("\n", tail));
    }

    private SparkIcebergReader step(String flag, String value) {
        steps.add(flag);
        steps.add(value);
        return this;
    }

    /**
     * The reader's class path: the root that holds {@link #CLASSPATH} (the module's classes or
     * jar), then the entries listed in it.
     */
    static String classPath() throws IOException {
        URL url = SparkIcebergReader.class.getClassLoader().getResource(CLASSPATH);
        if (url == null) {
            throw new IllegalStateException(
                    "Resource "
                            + CLASSPATH
                            + " is missing: add tarn-engine-readers to the test class path (test"
                            + " scope, excluding its dependencies); its build writes it");
        }
        String root;
        try {
            if (url.getProtocol().equals("jar")) {
                String jar = url.getPath().substring(0, url.getPath().indexOf("!/"));
                root = Path.of(new URL(jar).toURI()).toString();
            } else {
                Path file = Path.of(url.toURI());
                int depth = CLASSPATH.split("/").length;
                root =
                        file.getRoot()
                                .resolve(file.subpath(0, file.getNameCount() - depth))
                                .toString();
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException(
                    "Cannot locate the Spark reader's classes at " + url, e);
        }
        try (InputStream in = url.openStream()) {
            String entries = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return root + File.pathSeparator + entries;
        }
    }
}
