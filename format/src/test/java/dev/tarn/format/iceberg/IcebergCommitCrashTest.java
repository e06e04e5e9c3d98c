package dev.tarn.format.iceberg;

import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.CommitStateUnknownException;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failures injected between a table's Iceberg metadata and its Tarn snapshot (SPEC.md, "Iceberg
 * metadata", order and recovery): a snapshot whose publish fails, a commit that dies after the
 * Iceberg step, a commit that loses the race for its snapshot id, and a published snapshot whose
 * Iceberg version or hint cannot be written. After each, Tarn reads its latest snapshot and Iceberg
 * readers (the one that opens what the hint names and the path table, which also takes every later
 * version that exists) read a snapshot Tarn published, with Tarn's rows of it; the next commit
 * succeeds and both agree on it.
 */
class IcebergCommitCrashTest {

    /** The two shapes whose Iceberg metadata differs: data files only, or deletion vectors too. */
    enum Kind {
        APPEND,
        VECTORS
    }

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    @TempDir java.nio.file.Path dir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private Path location;
    private Table table;
    private long identifier;

    private Table create(Kind kind, Map<String, String> extra) {
        location = new Path(dir.toUri());
        Map<String, String> options = new HashMap<>(extra);
        options.put("metadata.iceberg.storage", "table-location");
        options.put("commit.retry-wait", "1 ms");
        List<String> keys = List.of();
        if (kind == Kind.VECTORS) {
            options.put("bucket", "1");
            options.put("deletion-vectors.enabled", "true");
            // One snapshot per commit: no file rewritten for its deleted rows in between.
            options.put("compaction.delete-ratio-threshold", "1");
            keys = List.of("id");
        }
        table =
                Table.create(
                        io,
                        location,
                        TestTables.NAME,
                        TableSchema.create(TYPE, List.of(), keys, options, null));
        return table;
    }

    /** Rows {@code (id, v)} for the ids {@code from} to {@code to}; an upsert where ids repeat. */
    private static List<GenericRowData> rows(long from, long to, String v) {
        List<GenericRowData> rows = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            rows.add(row(id, v + id));
        }
        return rows;
    }

    /** Commits {@code messages} with a committer of the table's, as a batch statement does. */
    private long commit(Table on, List<CommitMessage> messages) {
        return commit(on, "user", messages);
    }

    private long commit(Table on, String user, List<CommitMessage> messages) {
        try (TableCommit commit = on.newCommit(user)) {
            return commit.commit(CommitRequest.of(++identifier, messages))
                    .snapshotId()
                    .orElseThrow();
        }
    }

    /** Snapshots 1 and 2: ids 1-4, then 3-6 (an upsert of 3 and 4 in a primary-key table). */
    private void twoCommits() {
        commit(table, TestTables.write(table, rows(1, 4, "a")));
        commit(table, TestTables.write(table, rows(3, 6, "b")));
    }

    private long latest() {
        return TableInternals.context(table).snapshotManager().latestId().orElseThrow();
    }

    /** Tarn's rows of snapshot {@code id}. */
    private List<String> tarnAt(long id) {
        return TestTables.read(
                table,
                table.newScan()
                        .plan(TableInternals.context(table).snapshotManager().snapshot(id))
                        .splits());
    }

    private IcebergRows iceberg() {
        return new IcebergRows(FileIO.flinkFileSystems(), location);
    }

    /**
     * What every Iceberg reader reads is a snapshot Tarn published, with Tarn's rows of it: each
     * version there is, the one the hint names ({@code hint}), and the path table ({@code path}).
     */
    private void assertIcebergReadsAsTarn(long hint, long path) {
        IcebergRows iceberg = iceberg();
        long latest = latest();
        Map<Long, List<String>> tarn = new HashMap<>();
        for (long id = 1; id <= latest + 1; id++) {
            if (iceberg.exists(id)) {
                assertThat(id).as("a version of a published snapshot").isLessThanOrEqualTo(latest);
                assertThat(iceberg.at(id))
                        .as("Iceberg version %d", id)
                        .isEqualTo(tarn.computeIfAbsent(id, this::tarnAt));
            }
        }
        assertThat(iceberg.hint()).as("the version the hint names").isEqualTo(hint);
        assertThat(iceberg.exists(hint)).as("the hinted version, read above").isTrue();
        IcebergRows.PathTable table = iceberg.pathTable();
        assertThat(table.snapshotId()).as("the path table's current snapshot").isEqualTo(path);
        assertThat(table.rows()).isEqualTo(tarn.computeIfAbsent(path, this::tarnAt));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSnapshotWhosePublishFailsLeavesNoIcebergVersionAndItsRetryWritesOne(Kind kind) {
        create(kind, Map.of());
        twoCommits();
        List<CommitMessage> third = TestTables.write(table, rows(5, 8, "c"));
        io.failNth(Op.LINK, named("snapshot-3"), 1);
        assertThatThrownBy(() -> commit(table, third))
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining("Cannot tell whether snapshot 3 of table db.t was committed")
                .hasMessageContaining("Injected failure of LINK on")
                .hasMessageEndingWith("snapshot-3");
        assertThat(latest()).isEqualTo(2);
        assertThat(iceberg().exists(3)).as("Iceberg version 3 before snapshot 3").isFalse();
        assertIcebergReadsAsTarn(2, 2);

        io.heal();
        identifier--; // The job retries the commit it could not confirm.
        assertThat(commit(table, third)).isEqualTo(3);
        assertIcebergReadsAsTarn(3, 3);
        assertThat(iceberg().atHint()).contains("8,c8");
        assertThat(iceberg().formatVersion(3))
                .as("Iceberg's format version: 3 where deletion vectors apply")
                .isEqualTo(kind == Kind.VECTORS ? 3 : 2);
    }

    @Test
    void aPublishOfUnknownOutcomeThatTookEffectIsCaughtUpByTheRetryThatFindsIt() {
        create(Kind.APPEND, Map.of());
        twoCommits();
        List<CommitMessage> third = TestTables.write(table, rows(7, 7, "c"));
        io.failAfterNth(Op.LINK, named("snapshot-3"), 1);
        assertThatThrownBy(() -> commit(table, third))
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining("Cannot tell whether snapshot 3 of table db.t was committed")
                .hasMessageContaining("Injected failure after LINK on");
        assertThat(latest()).as("the snapshot was published").isEqualTo(3);
        assertIcebergReadsAsTarn(2, 2);

        identifier--; // The job retries the commit it could not confirm, which finds it done.
        try (TableCommit retry = table.newCommit("user")) {
            TableCommit.Result result = retry.commit(CommitRequest.of(++identifier, third));
            assertThat(result.alreadyCommitted()).isTrue();
        }
        assertIcebergReadsAsTarn(3, 3);
    }

    @Test
    void aCommitThatDiesAfterTheIcebergStepLeavesNoIcebergVersion() {
        create(Kind.APPEND, Map.of());
        twoCommits();
        CommitHook dies =
                new CommitHook() {
                    @Override
                    public void beforePublish(Staged staged) throws IOException {
                        throw new IOException(
                                "process killed before snapshot " + staged.snapshot().id());
                    }
                };
        List<CommitHook> hooks =
                new ArrayList<>(IcebergCommit.hooks(TableInternals.context(table)));
        hooks.add(dies);
        List<CommitMessage> third = TestTables.write(table, rows(7, 7, "c"));
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "user", Long.MAX_VALUE, hooks)) {
            assertThatThrownBy(() -> commit.commit(CommitRequest.of(++identifier, third)))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("Cannot commit to table db.t: process killed before snapshot 3");
        }
        assertThat(iceberg().exists(3)).as("Iceberg version 3 before snapshot 3").isFalse();
        assertIcebergReadsAsTarn(2, 2);

        assertThat(commit(table, third)).isEqualTo(3);
        assertIcebergReadsAsTarn(3, 3);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aCommitThatLosesTheRaceLeavesTheWinnersIcebergVersionAlone(Kind kind) {
        create(kind, Map.of());
        twoCommits();
        Table winner = Table.load(FileIO.flinkFileSystems(), location, TestTables.NAME);
        List<CommitMessage> won = TestTables.write(winner, rows(6, 7, "w"));
        List<CommitMessage> lost = TestTables.write(table, rows(1, 2, "l"));
        Predicate<Path> icebergFiles = p -> p.getParent().getName().equals("metadata");
        // Once the loser has begun writing the Iceberg metadata of its snapshot 3, the winner
        // commits snapshot 3 whole: Iceberg version 3 and the hint are the winner's.
        io.beforeNth(Op.OVERWRITE, icebergFiles, 1, (path, real) -> commit(winner, "winner", won));

        long retried = commit(table, lost);
        assertThat(tarnAt(3)).contains("7,w7").doesNotContain("1,l1");
        assertThat(retried).as("the loser's snapshot after its retry").isGreaterThan(3);
        assertIcebergReadsAsTarn(retried, retried);
        assertThat(iceberg().at(3)).as("the winner's snapshot in Iceberg").isEqualTo(tarnAt(3));
    }

    @Test
    void aPublishedSnapshotWhoseHintIsNotMovedIsReadAsTarnsAndTheNextCommitMovesIt() {
        create(Kind.APPEND, Map.of());
        twoCommits();
        io.failNth(Op.OVERWRITE, named("version-hint.text"), 1);
        assertThat(commit(table, TestTables.write(table, rows(7, 7, "c")))).isEqualTo(3);
        // The hint stays on 2; path tables also take version 3, which is published.
        assertIcebergReadsAsTarn(2, 3);

        assertThat(commit(table, TestTables.write(table, rows(8, 8, "d")))).isEqualTo(4);
        assertIcebergReadsAsTarn(4, 4);
    }

    @Test
    void aPublishedSnapshotWhoseIcebergVersionCannotBeWrittenIsRepairedByTheNextCommit() {
        create(Kind.APPEND, Map.of());
        twoCommits();
        io.failNth(Op.OVERWRITE, named("v3.metadata.json"), 1);
        assertThat(commit(table, TestTables.write(table, rows(7, 7, "c"))))
                .as("the snapshot is published; its Iceberg side lags")
                .isEqualTo(3);
        assertThat(iceberg().exists(3)).isFalse();
        assertIcebergReadsAsTarn(2, 2);

        assertThat(commit(table, TestTables.write(table, rows(8, 8, "d")))).isEqualTo(4);
        assertIcebergReadsAsTarn(4, 4);
        assertThat(iceberg().atHint()).contains("7,c7", "8,d8");
    }

    @Test
    void everyCommitterOfATableBuildsOnTheVersionTheLastOneWroteWithoutReadingItBack()
            throws Exception {
        create(Kind.APPEND, Map.of());
        twoCommits();
        Predicate<Path> metadataFiles =
                p -> p.getName().endsWith(".metadata.json") || p.getName().startsWith("snap-");
        io.resetCounts();
        // A third committer, then a compaction's: each a new committer of the same table.
        commit(table, TestTables.write(table, rows(7, 9, "c")));
        var plan = table.maintenance().planFullCompaction(p -> true).orElseThrow();
        List<CommitMessage> rewritten = new ArrayList<>();
        try (var compactor = table.maintenance().newCompactor()) {
            for (var unit : plan.units()) {
                rewritten.addAll(compactor.compact(unit));
            }
        }
        table.maintenance().publishCompaction(plan, rewritten);
        assertThat(
                        io.calls(Op.READ_ALL_BYTES, metadataFiles)
                                + io.calls(Op.NEW_INPUT_STREAM, metadataFiles))
                .as("reads of Iceberg versions and manifest lists: %s", io.calls())
                .isZero();
        assertIcebergReadsAsTarn(latest(), latest());
    }

    /**
     * The versions of a table with deletion vectors (format version 3) that a table instance's
     * committers write from memory each name every version before them once, in order, in their
     * metadata log, and are the text Iceberg's parser writes for what it parses.
     */
    @Test
    void theMetadataLogOfATableWithVectorsNamesEveryEarlierVersionOnce() throws Exception {
        create(Kind.VECTORS, Map.of());
        twoCommits(); // Snapshot 1 without vectors, 2 with the first.
        commit(table, TestTables.write(table, rows(5, 8, "c")));
        for (long version = 1; version <= 3; version++) {
            String text =
                    new String(
                            FileIO.flinkFileSystems()
                                    .readAllBytes(
                                            new Path(
                                                    location,
                                                    "metadata/v" + version + ".metadata.json")),
                            java.nio.charset.StandardCharsets.UTF_8);
            org.apache.iceberg.TableMetadata parsed =
                    org.apache.iceberg.TableMetadataParser.fromJson(text);
            assertThat(org.apache.iceberg.TableMetadataParser.toJson(parsed))
                    .as("version %d", version)
                    .isEqualTo(text);
            assertThat(parsed.formatVersion()).as("version %d", version).isEqualTo(3);
            assertThat(parsed.previousFiles())
                    .as("previous versions of version %d", version)
                    .extracting(e -> new Path(e.file()).getName())
                    .containsExactlyElementsOf(
                            java.util.stream.LongStream.range(1, version)
                                    .mapToObj(v -> "v" + v + ".metadata.json")
                                    .toList());
        }
    }
}
