package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The Flink installation the cluster test runs: the jars of a distribution's {@code lib/} (from
 * Maven, there being no distribution to download), the SQL client's jars ({@code opt/}), and Tarn's
 * shaded jar, which is all the cluster gets of Tarn. The constructor refuses Flink jars that hold
 * Tarn in any other form or Hadoop, so a leak into the class path cannot make the test pass.
 */
record FlinkRuntime(List<Path> lib, List<Path> sqlClient, Path tarnJar) {

    /**
     * Classes no Flink jar of the test may hold: Tarn's own (it comes as the shaded jar only) and
     * Hadoop's (it comes as Flink's S3 plugin only, in its own class loader), and the test's own S3
     * server and clients (S3Mock, its Spring, the AWS SDK, which Tarn bundles relocated).
     */
    private static final List<String> FORBIDDEN =
            List.of(
                    "dev/tarn/",
                    "org/apache/hadoop/",
                    "com/adobe/testing/",
                    "org/springframework/",
                    "software/amazon/awssdk/");

    FlinkRuntime {
        lib = List.copyOf(lib);
        sqlClient = List.copyOf(sqlClient);
        if (!Files.isRegularFile(tarnJar)) {
            throw new IllegalArgumentException("Tarn's shaded jar " + tarnJar + " does not exist");
        }
        for (Path jar : concat(lib, sqlClient)) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("Flink jar " + jar + " does not exist");
            }
            if (jar.equals(tarnJar)) {
                throw new IllegalArgumentException(
                        "Flink's class path must not hold Tarn's shaded jar " + jar + " itself");
            }
            String forbidden = forbiddenClasses(jar);
            if (forbidden != null) {
                throw new IllegalArgumentException(
                        "Flink's class path must hold neither Tarn (but as its shaded jar) nor"
                                + " Hadoop, S3Mock, Spring or the AWS SDK, but "
                                + jar
                                + " has "
                                + forbidden);
            }
        }
    }

    /**
     * Reads the class path files the build writes (one {@code :}-separated line each): Flink's own
     * runtime, the libraries it shares with Tarn's modules (which Tarn's jar bundles relocated),
     * and the SQL client.
     */
    static FlinkRuntime fromClassPathFiles(
            Path libFile, Path sharedLibFile, Path sqlClientFile, Path tarnJar) throws IOException {
        return new FlinkRuntime(
                concat(read(libFile), read(sharedLibFile)), read(sqlClientFile), tarnJar);
    }

    /** What the JobManager and TaskManagers run with: lib/ and the Tarn jar in it. */
    List<Path> clusterClassPath() {
        return concat(lib, List.of(tarnJar));
    }

    /** What the SQL client runs with: lib/ (the Tarn jar in it), then the client's own jars. */
    List<Path> sqlClientClassPath() {
        return concat(clusterClassPath(), sqlClient);
    }

    private static List<Path> read(Path file) throws IOException {
        String text = Files.readString(file).strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("Class path file " + file + " is empty");
        }
        return Arrays.stream(text.split(java.io.File.pathSeparator)).map(Path::of).toList();
    }

    /** The first class of a forbidden package in {@code jar}, or null. */
    private static String forbiddenClasses(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return Collections.list(file.entries()).stream()
                    .map(e -> e.getName())
                    .filter(n -> FORBIDDEN.stream().anyMatch(n::startsWith))
                    .findFirst()
                    .orElse(null);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read Flink jar " + jar + ": " + e, e);
        }
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
