package dev.tarn.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Primary-key tables end to end in the format: write, flush, compact, commit, merge on read. */
class PrimaryKeyTableTest {

    /** {@code (id BIGINT NOT NULL, a BIGINT, b STRING, dt STRING NOT NULL)}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new BigIntType(),
                        VarCharType.STRING_TYPE,
                        new VarCharType(false, VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "a", "b", "dt"});

    @TempDir java.nio.file.Path tempDir;

    private Path location;

    @BeforeEach
    void setUp() {
        location = new Path(tempDir.toUri());
    }

    private Table create(List<String> partitionKeys, Map<String, String> options) {
        List<String> pk = new ArrayList<>(List.of("id"));
        pk.addAll(partitionKeys);
        return Table.create(
                FileIO.flinkFileSystems(),
                location,
                "db.users",
                TableSchema.create(TYPE, partitionKeys, pk, options, null));
    }

    private static GenericRowData row(RowKind kind, long id, Long a, String b) {
        GenericRowData row =
                GenericRowData.of(
                        id,
                        a,
                        b == null ? null : StringData.fromString(b),
                        StringData.fromString("d"));
        row.setRowKind(kind);
        return row;
    }

    private static String text(long id, Object a, Object b) {
        return id + "," + a + "," + b + ",d";
    }

    private static List<String> read(Table table, Predicate filter) {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead().withFilter(filter);
        for (Split split : table.newScan().withFilter(filter).plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    assertThat(r.getRowKind()).isEqualTo(RowKind.INSERT);
                    rows.add(
                            text(
                                    r.getLong(0),
                                    r.isNullAt(1) ? null : r.getLong(1),
                                    r.isNullAt(2) ? null : r.getString(2)));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        rows.sort(null);
        return rows;
    }

    private static void commit(Table table, TableWrite write, long identifier, boolean end)
            throws IOException {
        TestTables.commit(table, "user", CommitRequest.of(identifier, write.prepareCommit(end)));
    }

    @Test
    void latestVersionOfEachKeyWins() throws IOException {
        Table table = create(List.of("dt"), Map.of("bucket", "2"));
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.INSERT, 1, 10L, "x"));
            write.write(row(RowKind.INSERT, 2, 20L, "y"));
            write.write(row(RowKind.UPDATE_AFTER, 1, 11L, "x2"));
            commit(table, write, 1, false);
            write.write(row(RowKind.DELETE, 2, 20L, "y"));
            write.write(row(RowKind.INSERT, 3, 30L, "z"));
            write.write(row(RowKind.UPDATE_BEFORE, 3, 30L, "z"));
            write.write(row(RowKind.UPDATE_AFTER, 3, 31L, "z"));
            commit(table, write, 2, true);
        }
        assertThat(read(table, null)).containsExactly(text(1, 11, "x2"), text(3, 31, "z"));
    }

    @Test
    void valueFilterIsNotPushedBelowTheMerge() throws IOException {
        Table table = create(List.of(), Map.of("bucket", "1"));
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.INSERT, 1, 5L, "old"));
            commit(table, write, 1, false);
            write.write(row(RowKind.UPDATE_AFTER, 1, 50L, "new"));
            commit(table, write, 2, false);
        }
        // a < 10: the newer file's statistics rule it out, the older file's do not.
        Predicate aBelow10 =
                new Predicate.Leaf(Predicate.Op.LT, 1, "a", new BigIntType(), List.of(10L));
        assertThat(read(table, aBelow10))
                .as("the engine filters merged rows; an older version must never surface")
                .containsExactly(text(1, 50, "new"));
        Predicate id1 =
                new Predicate.Leaf(Predicate.Op.EQ, 0, "id", new BigIntType(false), List.of(1L));
        assertThat(read(table, id1)).containsExactly(text(1, 50, "new"));
    }

    @Test
    void pointLookupPlansOnlyTheKeysBucket() throws IOException {
        Table table = create(List.of(), Map.of("bucket", "4"));
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < 200; id++) {
                write.write(row(RowKind.INSERT, id, id, "v"));
            }
            commit(table, write, 1, true);
        }
        Predicate id42 =
                new Predicate.Leaf(Predicate.Op.EQ, 0, "id", new BigIntType(false), List.of(42L));
        assertThat(table.newScan().withFilter(id42).plan().splits()).hasSize(1);
        assertThat(read(table, id42)).contains(text(42, 42, "v"));
        Predicate in =
                new Predicate.Leaf(
                        Predicate.Op.IN, 0, "id", new BigIntType(false), List.of(1L, 2L, 3L));
        assertThat(table.newScan().withFilter(in).plan().splits()).hasSizeBetween(1, 3);
        assertThat(read(table, in)).contains(text(1, 1, "v"), text(2, 2, "v"), text(3, 3, "v"));
        Predicate range =
                new Predicate.Leaf(Predicate.Op.GT, 0, "id", new BigIntType(false), List.of(5L));
        assertThat(table.newScan().withFilter(range).plan().splits()).hasSize(4);
    }

    @Test
    void compactionPublishesCompactSnapshotsAndDropsTombstonesAtTheLastLevel() throws IOException {
        Table table =
                create(List.of(), Map.of("bucket", "1", "num-sorted-run.compaction-trigger", "2"));
        try (TableWrite write = table.newWrite()) {
            for (int i = 0; i < 6; i++) {
                write.write(row(RowKind.INSERT, i, (long) i, "v" + i));
                write.write(row(RowKind.DELETE, i - 1, null, null));
                commit(table, write, i + 1, true);
            }
            write.compactFully(Partition.EMPTY, 0);
            commit(table, write, 100, true);
        }
        assertThat(read(table, null)).containsExactly(text(5, 5, "v5"));
        Snapshot latest =
                TableInternals.context(table)
                        .snapshotManager()
                        .snapshot(
                                TableInternals.context(table)
                                        .snapshotManager()
                                        .latestId()
                                        .getAsLong());
        assertThat(latest.commit().kind()).isEqualTo(CommitKind.COMPACT);
        Map<ManifestEntry.FileId, ManifestEntry> live =
                TableInternals.context(table).snapshotReader().liveFiles(latest);
        assertThat(live.values()).hasSize(1);
        DataFile file = live.values().iterator().next().file();
        assertThat(file.level()).isEqualTo(5);
        assertThat(file.rowCount()).as("only key 5 is left, without tombstones").isEqualTo(1);
        long compactSnapshots = 0;
        for (long id = 1; id <= latest.id(); id++) {
            if (TableInternals.context(table).snapshotManager().snapshot(id).commit().kind()
                    == CommitKind.COMPACT) {
                compactSnapshots++;
            }
        }
        assertThat(compactSnapshots)
                .as("compaction ran before the final full one")
                .isGreaterThan(1);
    }

    @Test
    void fullCompactionEveryFewCommitsLeavesOneFileAtTheLastLevel() throws IOException {
        Table table =
                create(
                        List.of(),
                        Map.of(
                                "bucket", "1",
                                "full-compaction.delta-commits", "3",
                                "num-sorted-run.compaction-trigger", "10"));
        try (TableWrite write = table.newWrite()) {
            for (int commit = 1; commit <= 3; commit++) {
                for (int id = 0; id < 10; id++) {
                    write.write(row(RowKind.INSERT, id, (long) commit, "c" + commit));
                }
                commit(table, write, commit, false);
                List<DataFile> files = liveFiles(table);
                if (commit < 3) {
                    assertThat(files).allMatch(f -> f.level() == 0).hasSize(commit);
                } else {
                    assertThat(files).singleElement().matches(f -> f.level() == 5);
                }
            }
        }
        assertThat(read(table, null)).hasSize(10).allMatch(r -> r.endsWith(",3,c3,d"));
    }

    private static List<DataFile> liveFiles(Table table) {
        Snapshot latest =
                TableInternals.context(table)
                        .snapshotManager()
                        .snapshot(
                                TableInternals.context(table)
                                        .snapshotManager()
                                        .latestId()
                                        .getAsLong());
        return TableInternals.context(table).snapshotReader().liveFiles(latest).values().stream()
                .map(ManifestEntry::file)
                .toList();
    }

    @Test
    void overwriteReplacesAllVersions() throws IOException {
        Table table = create(List.of(), Map.of("bucket", "1"));
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.INSERT, 1, 1L, "a"));
            write.write(row(RowKind.INSERT, 2, 2L, "b"));
            commit(table, write, 1, true);
        }
        try (TableWrite write = table.newWrite(true)) {
            write.write(row(RowKind.INSERT, 2, 22L, "bb"));
            TestTables.commit(
                    table,
                    "user",
                    CommitRequest.of(2, write.prepareCommit()).overwriting(p -> true));
        }
        assertThat(read(table, null)).containsExactly(text(2, 22, "bb"));
    }

    @Test
    void defaultsToFixedBucketsAndRefusesBadSchemas() {
        Table table = create(List.of("dt"), Map.of());
        assertThat(table.config().bucket()).isEqualTo(4);
        assertThat(table.schema().options()).containsEntry("bucket", "4");

        assertThatThrownBy(() -> createOther(List.of("dt"), List.of("id"), Map.of()))
                .hasMessageContaining(
                        "Partition column dt of table db.t must be part of the"
                                + " primary key [id]");
        assertThatThrownBy(() -> createOther(List.of(), List.of("id"), Map.of("bucket", "-1")))
                .hasMessageContaining("needs a fixed number of buckets, got 'bucket' = -1");
        assertThatThrownBy(() -> createOther(List.of(), List.of("id", "a"), Map.of()))
                .hasMessageContaining("Primary-key column a of table db.t must be NOT NULL");
        assertThatThrownBy(
                        () ->
                                createOther(
                                        List.of(), List.of(), Map.of("merge-engine", "first-row")))
                .hasMessageContaining(
                        "Option 'merge-engine' of table db.t applies to primary-key tables only");
        assertThatThrownBy(
                        () ->
                                createOther(
                                        List.of(), List.of("id"), Map.of("merge-engine", "latest")))
                .hasMessageContaining("Unknown merge engine 'latest'");
    }

    private Table createOther(
            List<String> partitionKeys, List<String> primaryKeys, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(location, "other"),
                "db.t",
                TableSchema.create(TYPE, partitionKeys, primaryKeys, options, null));
    }

    /**
     * Random upserts and deletes over a few keys, with a tiny write buffer (flushes and spills),
     * eager compaction, occasional full compactions and writer restarts, checked against a map
     * after every commit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"deduplicate", "partial-update", "aggregation", "first-row"})
    void randomChangesMatchAModel(String engine) throws IOException {
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "2");
        options.put("merge-engine", engine);
        options.put("write-buffer-size", "4kb");
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("target-file-size", "2kb");
        if (engine.equals("aggregation")) {
            options.put("fields.a.aggregate-function", "sum");
        }
        Table table = create(List.of(), options);
        Random random = new Random(engine.hashCode());
        Map<Long, Object[]> model = new TreeMap<>();
        boolean deletes = engine.equals("deduplicate") || engine.equals("first-row");
        TableWrite write = table.newWrite();
        try {
            for (long commit = 1; commit <= 60; commit++) {
                int changes = 1 + random.nextInt(40);
                for (int i = 0; i < changes; i++) {
                    long id = random.nextInt(30);
                    if (deletes && random.nextInt(5) == 0) {
                        write.write(row(RowKind.DELETE, id, null, null));
                        if (!engine.equals("first-row")) {
                            model.remove(id);
                        }
                        continue;
                    }
                    Long a = random.nextInt(4) == 0 ? null : (long) random.nextInt(100);
                    String b = random.nextInt(4) == 0 ? null : "s" + random.nextInt(1000);
                    write.write(row(RowKind.INSERT, id, a, b));
                    apply(engine, model, id, a, b);
                }
                if (random.nextInt(10) == 0) {
                    write.compactFully(Partition.EMPTY, random.nextInt(2));
                }
                commit(table, write, commit, random.nextBoolean());
                if (random.nextInt(8) == 0) {
                    write.close();
                    write = table.newWrite();
                }
                List<String> expected = new ArrayList<>();
                model.forEach((id, v) -> expected.add(text(id, v[0], v[1])));
                expected.sort(null);
                assertThat(read(table, null)).as("after commit %d", commit).isEqualTo(expected);
            }
        } finally {
            write.close();
        }
    }

    private static void apply(String engine, Map<Long, Object[]> model, long id, Long a, String b) {
        Object[] old = model.get(id);
        switch (engine) {
            case "deduplicate" -> model.put(id, new Object[] {a, b});
            case "first-row" -> model.putIfAbsent(id, new Object[] {a, b});
            case "partial-update" -> {
                if (old == null) {
                    model.put(id, new Object[] {a, b});
                } else {
                    model.put(id, new Object[] {a != null ? a : old[0], b != null ? b : old[1]});
                }
            }
            default -> { // aggregation: a sums, b keeps its last non-null value
                if (old == null) {
                    model.put(id, new Object[] {a, b});
                } else {
                    Long sum = (Long) old[0];
                    if (a != null) {
                        sum = sum == null ? a : Long.valueOf(sum + a);
                    }
                    model.put(id, new Object[] {sum, b != null ? b : old[1]});
                }
            }
        }
    }
}
