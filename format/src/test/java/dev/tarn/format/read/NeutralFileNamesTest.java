package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.ChangelogTables;
import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers go by the content each manifest entry records, never by a file's name: a copy of a {@code
 * lookup} table (data files, a writer's catch-up changelog files and before-image files) whose
 * files all carry names that say nothing plans and reads the same changes, with and without a
 * filter that prunes files, and the same rows.
 */
class NeutralFileNamesTest {

    /**
     * The name prefixes writers give files, each with a neutral one of the same length: a renamed
     * manifest entry keeps its length, so only a manifest's checksum changes.
     */
    private static final Map<String, String> NEUTRAL =
            Map.of("data-", "ffff-", "changelog-", "fffffffff-", "before-", "ffffff-");

    @TempDir java.nio.file.Path dir;

    @Test
    void aCopyWhoseFileNamesSayNothingReadsTheSameChangesAndRows() throws Exception {
        java.nio.file.Path location = dir.resolve("original");
        Table original = ChangelogTables.create(location, Map.of());
        ChangelogTables.writeHistory(original, new Random(5));
        assertThat(ChangelogTables.fileNames(location))
                .anyMatch(n -> n.startsWith("data-"))
                .anyMatch(n -> n.startsWith("changelog-"))
                .anyMatch(n -> n.startsWith("before-"));

        java.nio.file.Path copied = dir.resolve("copy");
        copyWithNeutralNames(location, copied);
        Table copy = Table.load(FileIO.flinkFileSystems(), new Path(copied.toUri()), "db.t");
        assertThat(ChangelogTables.fileNames(copied))
                .noneMatch(n -> NEUTRAL.keySet().stream().anyMatch(n::startsWith))
                .anyMatch(n -> n.startsWith("ffffff-"));

        Predicate highKeys =
                new Predicate.Leaf(
                        Predicate.Op.GT_EQ,
                        0,
                        "id",
                        new BigIntType(false),
                        List.of((long) ChangelogTables.HALF));
        for (Predicate filter : new Predicate[] {null, highKeys}) {
            List<String> expected = ChangelogTables.changes(original, filter);
            assertThat(expected).as("changes, filter %s", filter).hasSizeGreaterThan(1000);
            assertThat(ChangelogTables.changes(copy, filter))
                    .as("changes, filter %s", filter)
                    .isEqualTo(expected);
        }
        assertThat(ChangelogTables.rows(copy)).isEqualTo(ChangelogTables.rows(original));
    }

    /**
     * Copies the table at {@code from} to {@code to} (a new path: manifests are cached by path),
     * renaming every data, changelog and before-image file to a neutral name of the same length and
     * its manifest entries with it.
     */
    private static void copyWithNeutralNames(java.nio.file.Path from, java.nio.file.Path to)
            throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path file : files.toList()) {
                String name = file.getFileName().toString();
                java.nio.file.Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (name.startsWith("manifest-") && !name.startsWith("manifest-list-")) {
                    Files.write(target, renamedEntries(Files.readAllBytes(file)));
                } else {
                    Files.copy(file, target.resolveSibling(neutral(name)));
                }
            }
        }
    }

    private static String neutral(String name) {
        for (Map.Entry<String, String> prefix : NEUTRAL.entrySet()) {
            if (name.startsWith(prefix.getKey())) {
                return prefix.getValue() + name.substring(prefix.getKey().length());
            }
        }
        return name;
    }

    /** A manifest with each prefix replaced by its neutral one, and its checksum recomputed. */
    private static byte[] renamedEntries(byte[] manifest) {
        byte[] bytes = manifest.clone();
        for (Map.Entry<String, String> prefix : NEUTRAL.entrySet()) {
            byte[] old = prefix.getKey().getBytes(StandardCharsets.US_ASCII);
            byte[] neutral = prefix.getValue().getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i + old.length <= bytes.length - 4; i++) {
                if (Arrays.equals(bytes, i, i + old.length, old, 0, old.length)) {
                    System.arraycopy(neutral, 0, bytes, i, neutral.length);
                }
            }
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes, bytes.length - 4, 4).putInt((int) crc.getValue());
        return bytes;
    }
}
