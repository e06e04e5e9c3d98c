package dev.tarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package rules of CONVENTIONS.md, checked on the main source trees of format, connector and
 * catalog: every package has an overview ({@code package-info.java}) and holds a concept small
 * enough to read, at most {@value #MAX_TYPES} top-level types. Parquet's own package ({@code
 * org.apache.*}), where format places what Parquet only allows from inside, is not Tarn's.
 */
class PackageLayoutTest {

    /** Past this many types a package holds more than one concept (the Kafka source holds 10). */
    private static final int MAX_TYPES = 25;

    /** Relative to the catalog module, where the build runs this test. */
    private static final List<Path> SOURCE_ROOTS =
            List.of(
                    Path.of("../format/src/main/java"),
                    Path.of("../connector/src/main/java"),
                    Path.of("src/main/java"));

    @Test
    void everyPackageHasAnOverview() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            for (Path dir : packageDirectories(root)) {
                String name = packageName(root, dir);
                if (!Files.exists(dir.resolve("package-info.java"))) {
                    missing.add("package " + name + " has no package-info.java");
                }
            }
        }
        assertThat(missing).as("packages without an overview").isEmpty();
    }

    @Test
    void noPackageHoldsMoreThan25Types() throws IOException {
        List<String> crowded = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            for (Path dir : packageDirectories(root)) {
                String name = packageName(root, dir);
                long types = topLevelTypes(dir);
                if (types > MAX_TYPES) {
                    crowded.add(
                            "package "
                                    + name
                                    + " holds "
                                    + types
                                    + " top-level types, more than "
                                    + MAX_TYPES);
                }
            }
        }
        assertThat(crowded).as("packages past the limit").isEmpty();
    }

    @Test
    void theSourceTreesAreFound() throws IOException {
        // Guards the two rules above against passing over an empty walk.
        for (Path root : SOURCE_ROOTS) {
            assertThat(packageDirectories(root)).as("packages under " + root).isNotEmpty();
        }
    }

    /** The directories under {@code root} that hold a Java file, outside {@code org/apache}. */
    private static List<Path> packageDirectories(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .map(Path::getParent)
                    .distinct()
                    .filter(dir -> !root.relativize(dir).startsWith(Path.of("org", "apache")))
                    .sorted()
                    .toList();
        }
    }

    private static String packageName(Path root, Path dir) {
        return root.relativize(dir).toString().replace(dir.getFileSystem().getSeparator(), ".");
    }

    /** One per Java file: a file holds one top-level type; package-info.java holds none. */
    private static long topLevelTypes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".java") && !n.equals("package-info.java"))
                    .count();
        }
    }
}
