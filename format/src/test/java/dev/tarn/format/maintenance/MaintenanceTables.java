package dev.tarn.format.maintenance;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;

/** Files of test tables for the maintenance tests: where they are, how old, what they read. */
final class MaintenanceTables {

    private MaintenanceTables() {}

    static java.nio.file.Path local(Path path) {
        return java.nio.file.Path.of(path.toUri());
    }

    /** Every regular file below {@code dir}, sorted. */
    static List<java.nio.file.Path> filesBelow(java.nio.file.Path dir) {
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets the modification time of {@code file}. */
    static void age(java.nio.file.Path file, Instant modified) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(modified));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a file of {@code bytes} modified at {@code modified}. */
    static java.nio.file.Path write(java.nio.file.Path file, String bytes, Instant modified) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        age(file, modified);
        return file;
    }

    /** The rows of snapshot {@code id}, as sorted text. */
    static List<String> readSnapshot(Table table, long id) {
        return TestTables.readAll(
                table.withDynamicOptions(java.util.Map.of("scan.snapshot-id", String.valueOf(id))));
    }

    /** The data file of the one file snapshot {@code id} added. */
    static Path addedFile(Table table, long id) {
        var delta =
                TableInternals.context(table)
                        .snapshotReader()
                        .delta(TableInternals.context(table).snapshotManager().snapshot(id));
        var entry = delta.added().get(0);
        return new Path(
                table.bucketPath(entry.partition(), entry.bucket()), entry.file().fileName());
    }
}
