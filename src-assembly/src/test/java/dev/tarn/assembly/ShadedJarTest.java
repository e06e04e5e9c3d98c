package dev.tarn.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The one jar users install: it must hold only Tarn's classes and relocated libraries, register
 * both factories, and bundle exactly the dependencies listed in runtime-deps.txt (so NOTICE is
 * reviewed whenever that list changes).
 */
class ShadedJarTest {

    private static JarFile jar() throws IOException {
        return new JarFile(System.getProperty("tarn.jar"));
    }

    /**
     * The one library bundled without relocation: zstd-jni, whose JNI symbols name its package,
     * with its native libraries in per-platform folders at the jar root.
     */
    private static final Pattern ZSTD_JNI =
            Pattern.compile(
                    "com/(github/(luben/(zstd/.*)?)?)?"
                            + "|(aix|darwin|freebsd|linux|win)/([^/]+/(libzstd-jni-[0-9.-]+\\.(so|dylib|dll))?)?");

    /**
     * Iceberg's build properties, which its version lookup reads from the class path's root by a
     * fixed name (without it, the Iceberg metadata would name an "unknown" library version).
     */
    private static final String ICEBERG_BUILD = "iceberg-build.properties";

    @Test
    void holdsOnlyTarnClassesMetadataAndZstdJni() throws IOException {
        List<String> foreign = new ArrayList<>();
        boolean hasZstdJni = false;
        try (JarFile jar = jar()) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                String name = e.getName();
                hasZstdJni |= name.equals("com/github/luben/zstd/Zstd.class");
                if (!name.startsWith("dev/tarn/")
                        && !name.startsWith("META-INF/")
                        && !name.equals("dev/")
                        && !name.equals(ICEBERG_BUILD)
                        && !ZSTD_JNI.matcher(name).matches()) {
                    foreign.add(name);
                }
            }
        }
        assertThat(foreign)
                .as("entries outside dev/tarn/**, META-INF/**, zstd-jni and " + ICEBERG_BUILD)
                .isEmpty();
        assertThat(hasZstdJni).as("zstd-jni is bundled").isTrue();
    }

    @Test
    void registersCatalogAndTableFactories() throws IOException {
        try (JarFile jar = jar()) {
            JarEntry services =
                    jar.getJarEntry("META-INF/services/org.apache.flink.table.factories.Factory");
            assertThat(services).isNotNull();
            try (InputStream in = jar.getInputStream(services)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(text)
                        .contains("dev.tarn.catalog.TarnCatalogFactory")
                        .contains("dev.tarn.connector.TarnDynamicTableFactory");
            }
        }
    }

    @Test
    void bundlesExactlyTheListedDependencies() throws IOException {
        TreeSet<String> bundled = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of(System.getProperty("tarn.bundled-deps")))) {
            // "   group:artifact:jar:version:scope" (maven-dependency-plugin's list goal)
            String[] parts = line.strip().split(":");
            if (parts.length >= 5) {
                bundled.add(parts[0] + ":" + parts[1] + ":" + parts[3]);
            }
        }
        TreeSet<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of(System.getProperty("tarn.runtime-deps")))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                listed.add(line.strip());
            }
        }
        assertThat(bundled).as("bundled dependencies").isNotEmpty();
        assertThat(bundled)
                .as("bundled dependencies; update runtime-deps.txt and NOTICE together")
                .containsExactlyElementsOf(listed);
    }
}
