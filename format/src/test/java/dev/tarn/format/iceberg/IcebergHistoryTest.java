package dev.tarn.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TarnManifestEntries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Iceberg side of a table's history: expiration removes the expired snapshots from the Iceberg
 * metadata and deletes the files only they named, orphan cleanup removes Iceberg files nothing
 * names and keeps every one a reader may open, and the manifests of many appends are merged. Each
 * snapshot the Iceberg metadata names stays readable with Iceberg's own manifest reader.
 */
class IcebergHistoryTest {

    @TempDir Path dir;

    private Table create() {
        return create(dir);
    }

    private static Table create(Path tableDir) {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(tableDir.toUri()),
                TestTables.ID_V,
                List.of(),
                Map.of("bucket", "1", "metadata.iceberg.storage", "table-location"));
    }

    /** Appends rows {@code from .. to - 1} through {@code commit}; returns the snapshot id. */
    private static long append(Table table, TableCommit commit, long from, long to) {
        List<org.apache.flink.table.data.RowData> rows = new ArrayList<>();
        for (long i = from; i < to; i++) {
            rows.add(TestTables.row(i, "v" + i));
        }
        return commit.commit(CommitRequest.of(from, TestTables.write(table, rows)))
                .snapshotId()
                .orElseThrow();
    }

    /**
     * Commits {@code from} to {@code to - 1} of ten rows each: commit k holds rows 10k to 10k+9.
     */
    private static void appendTens(Table table, TableCommit commit, long from, long to) {
        for (long k = from; k < to; k++) {
            append(table, commit, k * 10, k * 10 + 10);
        }
    }

    private IcebergTable iceberg(Table table) {
        return new IcebergTable(TableInternals.context(table));
    }

    private TableMetadata current(Table table) {
        IcebergTable iceberg = iceberg(table);
        return iceberg.read(iceberg.hint().orElseThrow());
    }

    /** Rows in the data files of Iceberg snapshot {@code s}, read with Iceberg's reader. */
    private long rows(Table table, TableMetadata metadata, Snapshot s) throws IOException {
        long rows = 0;
        for (ManifestFile m : s.dataManifests(iceberg(table).io())) {
            try (ManifestReader<DataFile> files =
                    ManifestFiles.read(m, iceberg(table).io(), metadata.specsById())) {
                for (DataFile f : files) {
                    rows += f.recordCount();
                }
            }
        }
        return rows;
    }

    private Set<String> metadataFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("metadata"))) {
            return new TreeSet<>(files.map(p -> p.getFileName().toString()).toList());
        }
    }

    /** The files of {@code metadata/} that the current Iceberg metadata names, with the hint. */
    private Set<String> named(Table table, long fromVersion) {
        TableMetadata metadata = current(table);
        Set<String> named = new TreeSet<>();
        named.add(IcebergTable.HINT);
        for (Snapshot s : metadata.snapshots()) {
            if (s.snapshotId() >= fromVersion) {
                named.add("v" + s.snapshotId() + ".metadata.json");
            }
            named.add(new org.apache.flink.core.fs.Path(s.manifestListLocation()).getName());
            for (ManifestFile m : s.allManifests(iceberg(table).io())) {
                named.add(new org.apache.flink.core.fs.Path(m.path()).getName());
            }
        }
        return named;
    }

    @Test
    void expirationRemovesExpiredSnapshotsFromTheIcebergSideWithTheFilesOnlyTheyNamed()
            throws Exception {
        Table table = create();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 0, 5);
        }
        // Snapshot 6 rewrites every file: the manifests of 1..5 are replaced by one delete-only
        // manifest, which snapshot 7 drops.
        assertThat(table.maintenance().compactFully()).isPresent();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 5, 8);
        }
        Set<String> before = metadataFiles();

        table.maintenance()
                .expireSnapshots(new ExpireRequest(3, 3, Long.MAX_VALUE, null), Long.MAX_VALUE);

        TableMetadata metadata = current(table);
        assertThat(metadata.snapshots())
                .extracting(Snapshot::snapshotId)
                .containsExactly(7L, 8L, 9L);
        for (Snapshot s : metadata.snapshots()) {
            assertThat(rows(table, metadata, s))
                    .as("rows of Iceberg snapshot %d", s.snapshotId())
                    .isEqualTo(10 * (s.snapshotId() - 1));
        }
        assertThat(metadataFiles())
                .as("metadata/ after expiration: what the kept snapshots name, nothing else")
                .isEqualTo(named(table, 7))
                .contains("v7.metadata.json", "v9.metadata.json")
                .doesNotContain("v1.metadata.json", "v6.metadata.json");
        assertThat(before.size() - metadataFiles().size())
                .as(
                        "files deleted: 6 versions, 6 lists, 5 appends' manifests and the rewritten one")
                .isEqualTo(18);
    }

    @Test
    void aCommitterThatOutlivesAnExpirationNamesOnlyTheSnapshotsKept() throws Exception {
        Table table = create();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 0, 4);
            table.maintenance()
                    .expireSnapshots(new ExpireRequest(2, 2, Long.MAX_VALUE, null), Long.MAX_VALUE);
            // Its next commit builds on the metadata it wrote last, from before the expiration.
            append(table, commit, 40, 50);
        }
        TableMetadata metadata = current(table);
        assertThat(metadata.snapshots())
                .extracting(Snapshot::snapshotId)
                .containsExactly(3L, 4L, 5L);
        assertThat(metadataFiles()).isEqualTo(named(table, 3));
    }

    @Test
    void orphanCleanupKeepsWhatIcebergReadersOpenAndRemovesTheRest() throws Exception {
        Table table = create();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 0, 3);
        }
        Path metadataDir = dir.resolve("metadata");
        Path stray = Files.writeString(metadataDir.resolve("0000-lost-race-m0.avro"), "x");
        Set<String> named = named(table, 1);
        FileTime old = FileTime.from(Instant.now().minusSeconds(3 * 86400));
        try (Stream<Path> files = Files.list(metadataDir)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, old);
            }
        }

        RemoveOrphanFiles.Result result =
                table.maintenance().removeOrphanFiles(null, false, false, Instant.now());

        assertThat(result.files())
                .extracting(r -> new org.apache.flink.core.fs.Path(r.path()).getName())
                .containsExactly(stray.getFileName().toString());
        assertThat(metadataFiles()).isEqualTo(named);
        TableMetadata metadata = current(table);
        assertThat(rows(table, metadata, metadata.currentSnapshot())).isEqualTo(30);
    }

    @Test
    void theManifestsOfManyAppendsAreMergedAndEverySnapshotStillReads() throws Exception {
        Table table = create();
        int commits = IcebergManifestMerge.MIN_COUNT_TO_MERGE + 1;
        try (TableCommit commit = table.newCommit("writer")) {
            for (long i = 0; i < commits; i++) {
                append(table, commit, i, i + 1);
            }
        }
        TableMetadata metadata = current(table);
        Snapshot last = metadata.currentSnapshot();
        assertThat(last.dataManifests(iceberg(table).io()))
                .as("data manifests after %d appends", commits)
                .hasSizeLessThan(3);
        assertThat(rows(table, metadata, last)).isEqualTo(commits);
        for (long id : new long[] {1, commits / 2, commits - 1}) {
            assertThat(rows(table, metadata, metadata.snapshot(id)))
                    .as("rows of Iceberg snapshot %d", id)
                    .isEqualTo(id);
        }
        assertThat(metadataFiles())
                .as("no manifest written in vain: every file is named by a snapshot")
                .isEqualTo(named(table, 1));
        // Manifests (the merged ones too) and lists are uncompressed (format/SPEC.md section 19).
        for (String name : metadataFiles()) {
            if (name.endsWith(".avro")) {
                try (InputStream in = Files.newInputStream(dir.resolve("metadata").resolve(name));
                        DataFileStream<Object> avro =
                                new DataFileStream<>(in, new GenericDatumReader<>())) {
                    assertThat(avro.getMetaString(DataFileConstants.CODEC))
                            .as("Avro codec of %s", name)
                            .isEqualTo(DataFileConstants.NULL_CODEC);
                }
            }
        }
    }

    /**
     * The manifests a merge and a full compaction rewrite carry every file as Iceberg's reader
     * finds it in the manifest it came from (status aside: sequence numbers, the snapshot that
     * added it, counts, sizes and column statistics), whether the rewrite took the entries from
     * memory, as a committer that wrote them does, or read them from their files (a committer of
     * another process).
     */
    @Test
    void rewrittenManifestsCarryEachFileAsItsOwnManifestHeldIt() throws Exception {
        for (boolean kept : new boolean[] {true, false}) {
            Table table = create(dir.resolve(kept ? "kept" : "read"));
            int commits = IcebergManifestMerge.MIN_COUNT_TO_MERGE + 3;
            try (TableCommit commit = table.newCommit("writer")) {
                for (long i = 0; i < commits; i++) {
                    if (!kept) {
                        TarnManifestEntries.clear();
                    }
                    append(table, commit, 2 * i, 2 * i + 2);
                }
            }
            if (!kept) {
                TarnManifestEntries.clear();
            }
            assertThat(table.maintenance().compactFully()).isPresent();
            // From here on every manifest is read from its file.
            TarnManifestEntries.clear();
            IcebergTable iceberg = iceberg(table);
            TableMetadata metadata = iceberg.read(iceberg.hint().orElseThrow());
            // Each file as the manifest its snapshot wrote holds it.
            Map<String, String> original = new java.util.HashMap<>();
            for (Snapshot s : metadata.snapshots()) {
                for (ManifestFile m : s.dataManifests(iceberg.io())) {
                    if (m.snapshotId() != s.snapshotId() || m.addedFilesCount() == 0) {
                        continue;
                    }
                    try (ManifestReader<DataFile> reader =
                            ManifestFiles.read(m, iceberg.io(), metadata.specsById())) {
                        for (DataFile f : reader) {
                            if (f.fileSequenceNumber() == s.snapshotId()) {
                                original.put(f.location(), describe(f));
                            }
                        }
                    }
                }
            }
            assertThat(original.size())
                    .as("files appended, and the compaction's (kept: %s)", kept)
                    .isEqualTo(commits + 1);
            // The merge's manifest (existing entries) and the compaction's (deleted entries).
            Snapshot merged = metadata.snapshot(IcebergManifestMerge.MIN_COUNT_TO_MERGE + 1);
            Snapshot compacted = metadata.currentSnapshot();
            int checked = 0;
            // The merge's manifest: every file in it existing.
            for (ManifestFile m : merged.dataManifests(iceberg.io())) {
                if (m.snapshotId() != merged.snapshotId() || m.addedFilesCount() > 0) {
                    continue;
                }
                try (ManifestReader<DataFile> reader =
                        ManifestFiles.read(m, iceberg.io(), metadata.specsById())) {
                    for (DataFile f : reader) {
                        assertThat(describe(f))
                                .as("existing in snapshot %d (kept: %s)", merged.snapshotId(), kept)
                                .isEqualTo(original.get(f.location()));
                        checked++;
                    }
                }
            }
            // The compaction's: every file appended deleted.
            for (ManifestFile m : compacted.dataManifests(iceberg.io())) {
                for (DataFile f :
                        org.apache.iceberg.DeletedEntries.of(
                                m, iceberg.io(), metadata.specsById())) {
                    assertThat(describe(f))
                            .as("deleted in snapshot %d (kept: %s)", compacted.snapshotId(), kept)
                            .isEqualTo(original.get(f.location()));
                    checked++;
                }
            }
            assertThat(checked)
                    .as("existing entries of the merge and deleted ones of the compaction")
                    .isGreaterThanOrEqualTo(IcebergManifestMerge.MIN_COUNT_TO_MERGE + commits);
        }
    }

    private static Map<Integer, String> hex(Map<Integer, java.nio.ByteBuffer> bounds) {
        Map<Integer, String> hex = new java.util.TreeMap<>();
        bounds.forEach(
                (id, b) -> {
                    StringBuilder text = new StringBuilder();
                    for (int i = b.position(); i < b.limit(); i++) {
                        text.append(String.format("%02x", b.get(i)));
                    }
                    hex.put(id, text.toString());
                });
        return hex;
    }

    /** What a manifest says of a file, but for its status and the snapshot that changed it. */
    private static String describe(DataFile f) {
        return String.join(
                " ",
                f.location(),
                "data-seq=" + f.dataSequenceNumber(),
                "file-seq=" + f.fileSequenceNumber(),
                "rows=" + f.recordCount(),
                "bytes=" + f.fileSizeInBytes(),
                "sizes=" + f.columnSizes(),
                "values=" + f.valueCounts(),
                "nulls=" + f.nullValueCounts(),
                "lower=" + hex(f.lowerBounds()),
                "upper=" + hex(f.upperBounds()),
                "partition=" + f.partition(),
                "spec=" + f.specId(),
                "format=" + f.format(),
                "split=" + f.splitOffsets());
    }

    /**
     * Asserts that the version the hint names is the text Iceberg's parser writes for what it
     * parses (a committer writes its earlier snapshots from stored text), with {@code snapshots}
     * and a snapshot log of them in order.
     */
    private void assertParsersText(Table table, Long... snapshots) throws IOException {
        IcebergTable iceberg = iceberg(table);
        long version = iceberg.hint().orElseThrow();
        String text =
                Files.readString(dir.resolve("metadata").resolve("v" + version + ".metadata.json"));
        TableMetadata parsed = TableMetadataParser.fromJson(text);
        assertThat(TableMetadataParser.toJson(parsed)).as("version %d", version).isEqualTo(text);
        assertThat(parsed.snapshots()).extracting(Snapshot::snapshotId).containsExactly(snapshots);
        assertThat(parsed.snapshotLog())
                .extracting(HistoryEntry::snapshotId)
                .containsExactly(snapshots);
        // The versions before it, each once, in order, up to the one before it.
        List<Long> previous =
                parsed.previousFiles().stream()
                        .map(
                                e ->
                                        IcebergTable.version(
                                                new org.apache.flink.core.fs.Path(e.file())
                                                        .getName()))
                        .toList();
        assertThat(previous).as("previous versions of version %d", version).isNotEmpty();
        assertThat(previous)
                .as("previous versions of version %d", version)
                .isEqualTo(LongStream.range(previous.get(0), version).boxed().toList());
    }

    @Test
    void everyVersionIsTheTextIcebergsParserWritesWhoeverBuiltIt() throws Exception {
        Table table = create();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 0, 3);
            assertParsersText(table, 1L, 2L, 3L);
            // A full compaction commits through a committer of its own, which reads version 3.
            assertThat(table.maintenance().compactFully()).isPresent();
            assertParsersText(table, 1L, 2L, 3L, 4L);
            // This committer wrote version 3 last, so it reads version 4.
            appendTens(table, commit, 3, 5);
            assertParsersText(table, 1L, 2L, 3L, 4L, 5L, 6L);
        }
        table.maintenance()
                .expireSnapshots(new ExpireRequest(3, 3, Long.MAX_VALUE, null), Long.MAX_VALUE);
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 5, 6);
            assertParsersText(table, 4L, 5L, 6L, 7L);
        }
        TableMetadata metadata = current(table);
        for (Snapshot s : metadata.snapshots()) {
            assertThat(rows(table, metadata, s))
                    .as("rows of Iceberg snapshot %d", s.snapshotId())
                    .isEqualTo(s.snapshotId() == 4 ? 30 : 10 * (s.snapshotId() - 1));
        }
    }

    @Test
    void withoutTheHintMaintenanceTakesTheHighestVersionAsIcebergReadersDo() throws Exception {
        Table table = create();
        try (TableCommit commit = table.newCommit("writer")) {
            appendTens(table, commit, 0, 3);
        }
        // A commit deletes the hint before it moves the new one onto its name.
        Path metadataDir = dir.resolve("metadata");
        Files.delete(metadataDir.resolve(IcebergTable.HINT));
        assertThat(iceberg(table).hint()).hasValue(3);
        Set<String> named = named(table, 1);
        named.remove(IcebergTable.HINT);
        FileTime old = FileTime.from(Instant.now().minusSeconds(3 * 86400));
        try (Stream<Path> files = Files.list(metadataDir)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, old);
            }
        }

        RemoveOrphanFiles.Result result =
                table.maintenance().removeOrphanFiles(null, false, false, Instant.now());

        assertThat(result.files()).isEmpty();
        assertThat(metadataFiles()).isEqualTo(named);
    }
}
