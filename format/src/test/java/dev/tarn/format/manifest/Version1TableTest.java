package dev.tarn.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.ChangelogChecks;
import dev.tarn.format.ChangelogTables;
import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose manifests are all of version 1, written before files recorded their content, reads
 * as it did, and takes new commits (its writers restore from those manifests) and manifest merges,
 * which write version 2 beside them.
 */
class Version1TableTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aTableOfVersion1ManifestsReadsAndWrites() throws Exception {
        Map<String, String> options = Map.of("manifest.merge-min-count", "3");
        java.nio.file.Path location = dir.resolve("current");
        Table current = ChangelogTables.create(location, options);
        ChangelogTables.writeHistory(current, new Random(3));
        java.nio.file.Path oldLocation = dir.resolve("old");
        copyWithVersion1Manifests(current, location, oldLocation);
        Table old = Table.load(FileIO.flinkFileSystems(), new Path(oldLocation.toUri()), "db.t");
        assertThat(manifestVersions(oldLocation)).containsExactly(1);

        assertThat(ChangelogTables.changes(old, null))
                .isEqualTo(ChangelogTables.changes(current, null));
        assertThat(ChangelogTables.rows(old)).isEqualTo(ChangelogTables.rows(current));

        for (Table table : List.of(current, old)) {
            Random random = new Random(4);
            try (TableWrite write = table.newWrite()) {
                for (long id = 4; id <= 7; id++) {
                    ChangelogTables.commit(table, write, random, "job", id);
                }
            }
        }
        assertThat(manifestVersions(oldLocation)).containsExactly(1, 2);
        // Compactions commit when they finish, so snapshot ids and the order of buckets may
        // differ: the old table's changes from the start give its rows, which are the current's.
        List<String> rows = ChangelogTables.rows(old);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(ChangelogTables.rows(current));
        Map<Long, String> view = new TreeMap<>();
        ChangelogChecks.apply(
                ChangelogTables.changes(old, null).stream()
                        .map(c -> c.substring(c.indexOf(':') + 1))
                        .toList(),
                view,
                row -> Long.parseLong(row.substring(0, row.indexOf('|'))),
                "the old table");
        assertThat(view.values())
                .containsExactlyInAnyOrderElementsOf(
                        rows.stream().map(r -> r.substring(2)).toList());
    }

    /**
     * Copies the table to a new path (manifests are cached by path), its manifests as version 1.
     */
    private static void copyWithVersion1Manifests(
            Table table, java.nio.file.Path from, java.nio.file.Path to) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path file : files.toList()) {
                String name = file.getFileName().toString();
                java.nio.file.Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (isManifest(name)) {
                    List<ManifestEntry> entries =
                            TableInternals.context(table).manifestFile().read(name);
                    Files.write(target, Version1Layout.manifest(entries));
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    private static boolean isManifest(String name) {
        return name.startsWith("manifest-") && !name.startsWith("manifest-list-");
    }

    /** The format versions of the table's manifests. */
    private static Set<Integer> manifestVersions(java.nio.file.Path location) throws IOException {
        Set<Integer> versions = new TreeSet<>();
        try (Stream<java.nio.file.Path> files = Files.list(location.resolve("manifest"))) {
            for (java.nio.file.Path file : files.toList()) {
                if (isManifest(file.getFileName().toString())) {
                    versions.add((int) Files.readAllBytes(file)[ManifestFile.MAGIC.length]);
                }
            }
        }
        return versions;
    }
}
