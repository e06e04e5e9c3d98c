package dev.tarn.format.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags.Tag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An append table with two buckets for the lifecycle tests: commits of numbered rows, reads of a
 * snapshot or a tag as sorted text, and the files on disk against the files the snapshots and tags
 * that exist still reference (so a test sees both a lost file and a leaked one).
 */
final class LifecycleTables {

    private LifecycleTables() {}

    static Table create(FileIO io, Path dir, Map<String, String> options) {
        Map<String, String> all = new java.util.HashMap<>(Map.of("bucket", "2"));
        all.putAll(options);
        return TestTables.create(
                io,
                new org.apache.flink.core.fs.Path(dir.toUri()),
                TestTables.ID_V,
                List.of(),
                all);
    }

    /** Commits rows {@code from} to {@code to - 1}; returns the snapshot id. */
    static long commit(Table table, long from, long to) {
        List<org.apache.flink.table.data.RowData> rows = new ArrayList<>();
        for (long i = from; i < to; i++) {
            rows.add(TestTables.row(i, "v" + i));
        }
        return TestTables.append(table, from, rows);
    }

    static List<String> rows(long from, long to) {
        List<String> rows = new ArrayList<>();
        for (long i = from; i < to; i++) {
            rows.add(i + ",v" + i);
        }
        rows.sort(null);
        return rows;
    }

    static List<String> readSnapshot(Table table, long id) {
        return TestTables.readAll(
                table.withDynamicOptions(Map.of("scan.snapshot-id", String.valueOf(id))));
    }

    static List<String> readTag(Table table, String tag) {
        return TestTables.readAll(table.withDynamicOptions(Map.of("scan.tag-name", tag)));
    }

    /** The ids of the snapshot files there are. */
    static List<Long> snapshotIds(Table table) {
        SnapshotManager snapshots = TableInternals.context(table).snapshotManager();
        List<Long> ids = new ArrayList<>();
        long latest = snapshots.latestId().orElse(0);
        for (long id = 1; id <= latest; id++) {
            if (snapshots.exists(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Data and changelog files on disk, by name. */
    static Set<String> dataFilesOnDisk(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".parquet"))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Manifests and manifest lists on disk, by name. */
    static Set<String> metadataOnDisk(Path dir) {
        try (Stream<Path> files = Files.list(dir.resolve("manifest"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith("."))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The data files the existing snapshots and the tags reference. */
    static Set<String> referencedDataFiles(Table table) {
        SnapshotFiles files = new SnapshotFiles(TableInternals.context(table));
        Set<String> names = new TreeSet<>();
        for (Snapshot s : referenced(table)) {
            files.live(s).values().forEach(e -> names.add(e.file().fileName()));
            files.changelog(s, false).forEach(e -> names.add(e.file().fileName()));
        }
        return names;
    }

    /** The manifests and lists the existing snapshots and the tags reference. */
    static Set<String> referencedMetadata(Table table) {
        SnapshotFiles files = new SnapshotFiles(TableInternals.context(table));
        Set<String> names = new TreeSet<>();
        for (Snapshot s : referenced(table)) {
            names.addAll(files.metadata(s, false));
        }
        return names;
    }

    private static List<Snapshot> referenced(Table table) {
        List<Snapshot> all = new ArrayList<>();
        for (long id : snapshotIds(table)) {
            all.add(TableInternals.context(table).snapshotManager().snapshot(id));
        }
        TableInternals.context(table).tags().list().stream().map(Tag::snapshot).forEach(all::add);
        return all;
    }

    /** Every file on disk is referenced, and every referenced file is on disk. */
    static void assertNoLostOrLeakedFiles(Table table, Path dir) {
        assertThat(dataFilesOnDisk(dir)).as("data files").isEqualTo(referencedDataFiles(table));
        assertThat(metadataOnDisk(dir)).as("manifests").isEqualTo(referencedMetadata(table));
    }
}
