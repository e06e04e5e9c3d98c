package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
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
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Table writes with {@code changelog-producer} = {@code full-compaction}: what a full compaction
 * stores as changelog, for several merge engines, and when writers compact fully.
 */
class FullCompactionChangelogTest {

    /** {@code (id BIGINT NOT NULL, a BIGINT, b BIGINT)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new BigIntType(), new BigIntType()},
                    new String[] {"id", "a", "b"});

    @TempDir java.nio.file.Path tempDir;

    private Table table(String dir, Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.putIfAbsent("bucket", "1");
        all.put("changelog-producer", "full-compaction");
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.resolve(dir).toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), List.of("id"), all, null));
    }

    private static GenericRowData row(RowKind kind, long id, Long a, Long b) {
        GenericRowData row = GenericRowData.of(id, a, b);
        row.setRowKind(kind);
        return row;
    }

    private static String text(RowData r) {
        return r.getRowKind().shortString()
                + r.getLong(0)
                + "="
                + (r.isNullAt(1) ? null : r.getLong(1))
                + ","
                + (r.isNullAt(2) ? null : r.getLong(2));
    }

    /** The rows a streaming read emits for snapshot {@code id}, in order. */
    private static List<String> changes(Table table, long id) throws IOException {
        StreamScan scan =
                table.withDynamicOptions(Map.of("scan.snapshot-id", String.valueOf(id)))
                        .newStreamScan(null);
        return read(table, scan.changes(id).orElseThrow().splits());
    }

    private static List<String> read(Table table, List<Split> splits) throws IOException {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.add(text(r));
                }
            }
        }
        return rows;
    }

    private static List<String> kinds(Table table) {
        List<String> kinds = new ArrayList<>();
        long latest = TableInternals.context(table).snapshotManager().latestId().orElse(0);
        for (long id = 1; id <= latest; id++) {
            kinds.add(
                    TableInternals.context(table)
                            .snapshotManager()
                            .snapshot(id)
                            .commit()
                            .kind()
                            .name());
        }
        return kinds;
    }

    private static void commit(Table table, TableWrite write, long id, boolean end, RowData... rows)
            throws IOException {
        for (RowData r : rows) {
            write.write(r);
        }
        TestTables.commit(table, "job", CommitRequest.of(id, write.prepareCommit(end)));
    }

    @Test
    void aFullCompactionStoresTheChangesOfTheRowsSinceThePreviousOne() throws IOException {
        Table table = table("dedup", Map.of());
        try (TableWrite write = table.newWrite()) {
            commit(
                    table,
                    write,
                    1,
                    false,
                    row(RowKind.INSERT, 1, 1L, 1L),
                    row(RowKind.INSERT, 2, 2L, 2L),
                    row(RowKind.INSERT, 3, 3L, 3L));
            commit(
                    table,
                    write,
                    2,
                    false,
                    row(RowKind.UPDATE_AFTER, 1, 1L, 1L), // the same row: no change
                    row(RowKind.UPDATE_AFTER, 2, 20L, 2L),
                    row(RowKind.DELETE, 3, null, null),
                    row(RowKind.INSERT, 4, 4L, null),
                    row(RowKind.INSERT, 5, 5L, 5L),
                    row(RowKind.DELETE, 5, null, null)); // in and out between two compactions
        }
        assertThat(kinds(table)).containsExactly("APPEND", "COMPACT", "APPEND", "COMPACT");
        assertThat(changes(table, 1)).as("an APPEND snapshot").isEmpty();
        assertThat(changes(table, 2)).containsExactly("+I1=1,1", "+I2=2,2", "+I3=3,3");
        assertThat(changes(table, 3)).as("an APPEND snapshot").isEmpty();
        assertThat(changes(table, 4))
                .containsExactly("-U2=2,2", "+U2=20,2", "-D3=3,3", "+I4=4,null");
    }

    /**
     * Random upserts and deletes over several commits: after each, the changelog of all snapshots
     * so far, applied to an empty map, gives the rows a batch read of the table returns.
     */
    @ParameterizedTest
    @ValueSource(strings = {"deduplicate", "partial-update", "aggregation", "first-row"})
    void theChangelogAppliedToNoRowsGivesTheTablesRows(String engine) throws IOException {
        Map<String, String> options = new HashMap<>(Map.of("merge-engine", engine));
        if (engine.equals("partial-update")) {
            options.put("ignore-delete", "true");
        } else if (engine.equals("aggregation")) {
            options.put("fields.a.aggregate-function", "sum");
            options.put("fields.b.aggregate-function", "sum");
        }
        Table table = table(engine, options);
        Random random = new Random(engine.hashCode());
        Map<Long, String> state = new TreeMap<>();
        long applied = 0;
        int changed = 0;
        try (TableWrite write = table.newWrite()) {
            for (int commit = 1; commit <= 12; commit++) {
                for (int i = 0; i < 40; i++) {
                    long id = random.nextInt(25);
                    RowKind kind = random.nextInt(4) == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER;
                    Long a = random.nextBoolean() ? (long) random.nextInt(5) : null;
                    Long b = random.nextBoolean() ? (long) random.nextInt(5) : null;
                    if (kind == RowKind.DELETE && engine.equals("aggregation")) {
                        a = a == null ? 0L : a;
                        b = b == null ? 0L : b;
                    }
                    write.write(row(kind, id, a, b));
                }
                TestTables.commit(
                        table, "job", CommitRequest.of(commit, write.prepareCommit(false)));
                long latest =
                        TableInternals.context(table).snapshotManager().latestId().orElseThrow();
                for (long id = applied + 1; id <= latest; id++) {
                    for (String change : changes(table, id)) {
                        changed++;
                        long key = Long.parseLong(change.substring(2, change.indexOf('=')));
                        String value = change.substring(change.indexOf('=') + 1);
                        String kind = change.substring(0, 2);
                        if (kind.equals("+I") || kind.equals("+U")) {
                            assertThat(state.put(key, value))
                                    .as("%s of a key with a row", change)
                                    .isNull();
                        } else {
                            assertThat(state.remove(key))
                                    .as("the old row %s retracts", change)
                                    .isEqualTo(value);
                        }
                    }
                }
                applied = latest;
                Map<Long, String> batch = new TreeMap<>();
                for (String r : read(table, table.newScan().plan().splits())) {
                    batch.put(
                            Long.parseLong(r.substring(2, r.indexOf('='))),
                            r.substring(r.indexOf('=') + 1));
                }
                assertThat(state).as("after commit %d", commit).isEqualTo(batch);
            }
        }
        assertThat(changed).as("changes emitted").isGreaterThan(20);
    }

    @Test
    void anAggregationsChangelogHoldsTheFoldedRows() throws IOException {
        Table table =
                table(
                        "agg",
                        Map.of(
                                "merge-engine", "aggregation",
                                "fields.a.aggregate-function", "sum"));
        try (TableWrite write = table.newWrite()) {
            commit(table, write, 1, false, row(RowKind.INSERT, 1, 10L, 1L));
            commit(
                    table,
                    write,
                    2,
                    false,
                    row(RowKind.INSERT, 1, 5L, null),
                    row(RowKind.INSERT, 1, 1L, 7L));
        }
        assertThat(changes(table, 4)).containsExactly("-U1=10,1", "+U1=16,7");
    }

    @Test
    void fullCompactionsComeEveryDeltaCommitsAndAtTheEndOfTheInput() throws IOException {
        Table table = table("every", Map.of("full-compaction.delta-commits", "3"));
        try (TableWrite write = table.newWrite()) {
            commit(table, write, 1, false, row(RowKind.INSERT, 1, 1L, 1L));
            commit(table, write, 2, false, row(RowKind.INSERT, 2, 2L, 2L));
            assertThat(kinds(table)).containsExactly("APPEND", "APPEND");
            commit(table, write, 3, false, row(RowKind.INSERT, 1, 10L, 1L));
            assertThat(kinds(table)).containsExactly("APPEND", "APPEND", "APPEND", "COMPACT");
            assertThat(changes(table, 4)).containsExactly("+I1=10,1", "+I2=2,2");
            commit(table, write, 4, true, row(RowKind.DELETE, 2, null, null));
        }
        assertThat(kinds(table)).endsWith("APPEND", "COMPACT");
        assertThat(changes(table, 6)).as("at the end of the input").containsExactly("-D2=2,2");
    }

    @Test
    void aRestoredWriterCompactsAtItsFirstCommitWhatItsPredecessorLeftBelowTheLastLevel()
            throws IOException {
        Table table = table("restore", Map.of("full-compaction.delta-commits", "3"));
        try (TableWrite write = table.newWrite()) {
            for (int c = 1; c <= 3; c++) {
                commit(table, write, c, false, row(RowKind.INSERT, c, (long) c, null));
            }
            // Its fourth commit's row waits for the sixth; the job fails before.
            commit(table, write, 4, false, row(RowKind.INSERT, 1, 100L, null));
        }
        assertThat(kinds(table)).containsExactly("APPEND", "APPEND", "APPEND", "COMPACT", "APPEND");
        try (TableWrite restored = table.newWrite().deferRestore()) {
            commit(table, restored, 5, false, row(RowKind.INSERT, 4, 4L, null));
            assertThat(kinds(table)).endsWith("APPEND", "COMPACT");
            assertThat(changes(table, 7))
                    .containsExactly("-U1=1,null", "+U1=100,null", "+I4=4,null");
            commit(table, restored, 6, false, row(RowKind.INSERT, 5, 5L, null));
            assertThat(kinds(table)).endsWith("COMPACT", "APPEND");
            // Its third commit is due again: every 3 of its commits.
            commit(table, restored, 7, false, row(RowKind.INSERT, 6, 6L, null));
            assertThat(kinds(table)).hasSize(10).endsWith("APPEND", "APPEND", "COMPACT");
            assertThat(changes(table, 10)).containsExactly("+I5=5,null", "+I6=6,null");
        }
        // A writer that starts on a bucket whose rows are all at the last level counts from 0.
        try (TableWrite next = table.newWrite()) {
            commit(table, next, 8, false, row(RowKind.INSERT, 8, 8L, null));
            commit(table, next, 9, false, row(RowKind.INSERT, 9, 9L, null));
            assertThat(kinds(table)).hasSize(12).endsWith("COMPACT", "APPEND", "APPEND");
        }
    }

    @Test
    void aDroppedCompactionsChangelogIsDeletedAndNotPublished() throws IOException {
        Table table = table("race", Map.of("full-compaction.delta-commits", "2"));
        try (TableWrite write = table.newWrite()) {
            commit(table, write, 1, false, row(RowKind.INSERT, 1, 1L, null));
            write.write(row(RowKind.INSERT, 2, 2L, null));
            List<CommitMessage> messages = write.prepareCommit(false);
            CommitMessage compaction =
                    messages.stream().filter(m -> !m.deletedFiles().isEmpty()).findFirst().get();
            assertThat(compaction.changelogFiles()).isNotEmpty();
            // A compaction job replaces the writer's first file before the writer's commit.
            assertThat(FullCompaction.run(TableInternals.context(table))).isPresent();
            TableCommit.Result result =
                    TestTables.commit(table, "job", CommitRequest.of(2, messages));
            assertThat(result.droppedCompactions()).containsExactly(compaction);
            assertThat(kinds(table)).containsExactly("APPEND", "COMPACT", "APPEND");
            Path dir = table.bucketPath(compaction.partition(), compaction.bucket());
            for (DataFile f : compaction.changelogFiles()) {
                assertThat(table.io().exists(new Path(dir, f.fileName())))
                        .as("changelog file %s of the dropped compaction", f.fileName())
                        .isFalse();
            }
            assertThat(changes(table, 2)).as("the job's").containsExactly("+I1=1,null");
            assertThat(changes(table, 3)).isEmpty();
            // The writer rebuilds its view; its next full compaction goes on from the job's.
            commit(table, write, 3, false, row(RowKind.INSERT, 3, 3L, null));
            commit(table, write, 4, false, row(RowKind.INSERT, 1, 10L, null));
        }
        assertThat(kinds(table)).endsWith("APPEND", "APPEND", "COMPACT");
        assertThat(changes(table, 6))
                .containsExactly("-U1=1,null", "+U1=10,null", "+I2=2,null", "+I3=3,null");
    }

    @Test
    void aCommitPublishesTheChangelogOfTheCompactionsThatApplyOnly() throws IOException {
        Table table = table("partial", Map.of("bucket", "2", "full-compaction.delta-commits", "2"));
        try (TableWrite write = table.newWrite()) {
            for (long id = 1; id <= 8; id++) {
                write.write(row(RowKind.INSERT, id, id, null));
            }
            TestTables.commit(table, "job", CommitRequest.of(1, write.prepareCommit(false)));
            for (long id = 1; id <= 8; id++) {
                write.write(row(RowKind.INSERT, id, 10 * id, null));
            }
            List<CommitMessage> messages = write.prepareCommit(false);
            List<CommitMessage> compactions =
                    messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList();
            assertThat(compactions).extracting(CommitMessage::bucket).containsOnly(0, 1);
            // Another writer compacts bucket 0 first: the first writer's compaction of it is out.
            try (TableWrite other = table.newWrite()) {
                other.compactFully(compactions.get(0).partition(), 0);
                TestTables.commit(table, "other", CommitRequest.of(1, other.prepareCommit(true)));
            }
            TableCommit.Result result =
                    TestTables.commit(table, "job", CommitRequest.of(2, messages));
            assertThat(result.droppedCompactions())
                    .extracting(CommitMessage::bucket)
                    .containsExactly(0);
            Snapshot compacted = TableInternals.context(table).snapshotManager().latest();
            assertThat(compacted.commit().kind()).isEqualTo(Snapshot.CommitKind.COMPACT);
            assertThat(TableInternals.context(table).snapshotReader().changelog(compacted))
                    .isNotEmpty()
                    .allMatch(e -> e.bucket() == 1, "in bucket 1");
            CommitMessage dropped = result.droppedCompactions().get(0);
            Path dir = table.bucketPath(dropped.partition(), 0);
            for (DataFile f : dropped.changelogFiles()) {
                assertThat(table.io().exists(new Path(dir, f.fileName()))).isFalse();
            }
        }
    }

    /**
     * A full-compaction table's full phase reads the last level: the rows of its last changelog.
     */
    @Test
    void aStreamingReadStartsFromTheLastLevel() throws IOException {
        Table table = table("full", Map.of("full-compaction.delta-commits", "2"));
        try (TableWrite write = table.newWrite()) {
            commit(table, write, 1, false, row(RowKind.INSERT, 1, 1L, null));
            commit(table, write, 2, false, row(RowKind.INSERT, 2, 2L, null));
            commit(table, write, 3, false, row(RowKind.INSERT, 1, 10L, null));
        }
        Snapshot latest = TableInternals.context(table).snapshotManager().latest();
        StreamScan.Start start = table.newStreamScan(null).start();
        assertThat(start.fullSnapshot()).isEqualTo(latest);
        assertThat(read(table, start.splits()))
                .as("key 1's new row comes with the next full compaction's changelog")
                .containsExactly("+I1=1,null", "+I2=2,null");
    }
}
