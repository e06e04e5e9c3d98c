package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static dev.tarn.format.io.FaultInjectingFileIO.manifestFiles;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commit protocol of {@link TableCommit}: what each commit publishes, and what a failure
 * leaves.
 */
class TableCommitTest {

    @TempDir java.nio.file.Path tempDir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private Path location;

    @BeforeEach
    void setUp() {
        location = new Path(tempDir.toUri());
    }

    private Table table() {
        return TestTables.create(io, location, ID_V, List.of(), Map.of());
    }

    private Table partitionedTable() {
        return TestTables.create(io, location, ID_V_DT, List.of("dt"), Map.of());
    }

    @Test
    void appendsPublishConsecutiveSnapshotsWithRecordCounts() {
        Table table = table();
        TableCommit commit = table.newCommit("job-1");

        assertThat(
                        commit.commit(
                                        CommitRequest.of(
                                                101,
                                                write(table, List.of(row(1L, "a"), row(2L, "b")))))
                                .snapshotId())
                .hasValue(1);
        assertThat(
                        commit.commit(CommitRequest.of(102, write(table, List.of(row(3L, "c")))))
                                .snapshotId())
                .hasValue(2);
        assertThat(
                        commit.commit(
                                        CommitRequest.of(
                                                103,
                                                write(
                                                        table,
                                                        List.of(
                                                                row(4L, "d"),
                                                                row(5L, "e"),
                                                                row(6L, "f")))))
                                .snapshotId())
                .hasValue(3);

        SnapshotManager snapshots = TableInternals.context(table).snapshotManager();
        assertThat(snapshots.latestId()).hasValue(3);
        assertThat(snapshots.earliestId()).hasValue(1);
        long[][] expected = {{2, 2, 101}, {3, 1, 102}, {6, 3, 103}};
        for (int i = 0; i < 3; i++) {
            Snapshot s = snapshots.snapshot(i + 1);
            assertThat(s.records().total()).as("total of %d", i + 1).isEqualTo(expected[i][0]);
            assertThat(s.records().delta()).as("delta of %d", i + 1).isEqualTo(expected[i][1]);
            assertThat(s.commit().identifier()).isEqualTo(expected[i][2]);
            assertThat(s.commit().user()).isEqualTo("job-1");
            assertThat(s.commit().kind()).isEqualTo(CommitKind.APPEND);
            assertThat(s.schemaId()).isZero();
        }
        assertThat(snapshots.snapshot(2).commit().timeMillis())
                .isBetween(
                        snapshots.snapshot(1).commit().timeMillis(),
                        snapshots.snapshot(3).commit().timeMillis());
        assertThat(readAll(table)).containsExactly("1,a", "2,b", "3,c", "4,d", "5,e", "6,f");
    }

    @Test
    void emptyCommitPublishesNothing() {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        io.resetCounts();

        TableCommit commit = table.newCommit("user");
        assertThat(commit.commit(CommitRequest.of(2, List.of())).snapshotId()).isEmpty();
        assertThat(
                        commit.commit(
                                        CommitRequest.of(
                                                3,
                                                List.of(
                                                        CommitMessage.append(
                                                                Partition.EMPTY,
                                                                0,
                                                                -1,
                                                                List.of()))))
                                .snapshotId())
                .isEmpty();

        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(1);
        assertThat(io.calls(Op.LINK)).as("files created").isZero();
    }

    @Test
    void failedManifestWriteLeavesTableUnchangedAndCommitCanBeRetried() throws IOException {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        Set<String> metadataBefore = metadataFiles();
        List<CommitMessage> messages = write(table, List.of(row(2L, "b")));
        io.failNth(Op.OVERWRITE, manifestFiles(), 1);

        assertThatThrownBy(
                        () ->
                                TestTables.commit(table, "user", CommitRequest.of(2, messages))
                                        .snapshotId())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("Cannot commit to table db.t: Injected failure of")
                .hasMessageContaining("/manifest/manifest-");

        assertUnchanged(table, metadataBefore, List.of("1,a"));
        // The data files belong to the caller, who may retry the same messages.
        assertThat(dataFilesExist(table, messages)).isTrue();
        io.heal();
        assertThat(TestTables.commit(table, "user", CommitRequest.of(2, messages)).snapshotId())
                .hasValue(2);
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @ParameterizedTest(name = "manifest list {0} of 2")
    @ValueSource(ints = {1, 2})
    void failedManifestListWriteLeavesTableUnchanged(int failingList) throws IOException {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        Set<String> metadataBefore = metadataFiles();
        List<CommitMessage> messages = write(table, List.of(row(2L, "b")));
        io.failNth(Op.OVERWRITE, named("manifest-list-"), failingList);

        assertThatThrownBy(
                        () ->
                                TestTables.commit(table, "user", CommitRequest.of(2, messages))
                                        .snapshotId())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("Cannot commit to table db.t: Injected failure of")
                .hasMessageContaining("/manifest/manifest-list-");

        // Whatever the failed commit wrote is removed again: nothing but data files remain.
        assertUnchanged(table, metadataBefore, List.of("1,a"));
        table.newCommit("user").abort(messages);
        assertThat(dataFilesExist(table, messages)).isFalse();
    }

    @Test
    void snapshotWriteThatFailsSurfacesStateUnknownAndPublishesNothing() throws IOException {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        Set<String> snapshotFilesBefore = files("snapshot");
        List<CommitMessage> messages = write(table, List.of(row(2L, "b")));
        io.failNth(Op.LINK, named("snapshot-"), 1);

        assertThatThrownBy(
                        () ->
                                TestTables.commit(table, "user", CommitRequest.of(2, messages))
                                        .snapshotId())
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageStartingWith(
                        "Cannot tell whether snapshot 2 of table db.t was committed: Injected"
                                + " failure of LINK on ")
                .hasMessageEndingWith("/snapshot/snapshot-2");

        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(1);
        assertThat(files("snapshot")).isEqualTo(snapshotFilesBefore);
        assertThat(readAll(table)).containsExactly("1,a");
        assertThat(dataFilesExist(table, messages)).isTrue();
    }

    @Test
    void snapshotWriteWithUnknownOutcomeKeepsEverythingTheSnapshotNeeds() {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        List<CommitMessage> messages = write(table, List.of(row(2L, "b")));
        io.failAfterNth(Op.LINK, named("snapshot-"), 1);

        assertThatThrownBy(
                        () ->
                                TestTables.commit(table, "user", CommitRequest.of(7, messages))
                                        .snapshotId())
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining("Cannot tell whether snapshot 2 of table db.t was committed");

        // The snapshot did get created: it and every file it references must be intact.
        Snapshot snapshot = TableInternals.context(table).snapshotManager().latest();
        assertThat(snapshot.id()).isEqualTo(2);
        assertThat(snapshot.commit().identifier()).isEqualTo(7);
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @Test
    void overwriteOfWholeTableReplacesEveryRow() {
        Table table = partitionedTable();
        append(table, 1, List.of(row(1L, "a", "x"), row(2L, "b", "y"), row(3L, "c", "y")));

        long id =
                TestTables.commit(
                                table,
                                "user",
                                CommitRequest.of(2, write(table, List.of(row(9L, "z", "z"))))
                                        .overwriting(p -> true))
                        .snapshotId()
                        .getAsLong();

        Snapshot snapshot = TableInternals.context(table).snapshotManager().snapshot(id);
        assertThat(id).isEqualTo(2);
        assertThat(snapshot.commit().kind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(snapshot.records().total()).isEqualTo(1);
        assertThat(snapshot.records().delta()).isEqualTo(-2);
        assertThat(readAll(table)).containsExactly("9,z,z");
    }

    @Test
    void overwriteOfOnePartitionKeepsTheOthers() {
        Table table = partitionedTable();
        append(table, 1, List.of(row(1L, "a", "x"), row(2L, "b", "y"), row(3L, "c", "z")));
        append(table, 2, List.of(row(4L, "d", "y")));

        TestTables.commit(
                table,
                "user",
                CommitRequest.of(3, write(table, List.of(row(5L, "e", "y"))))
                        .overwriting(p -> p.equals(Partition.of("y"))));

        assertThat(readAll(table)).containsExactly("1,a,x", "3,c,z", "5,e,y");
        Snapshot snapshot = TableInternals.context(table).snapshotManager().latest();
        assertThat(snapshot.records().total()).isEqualTo(3);
        assertThat(snapshot.records().delta()).isEqualTo(-1);

        // Overwriting a partition with nothing empties it.
        TestTables.commit(
                table,
                "user",
                CommitRequest.of(4, List.of()).overwriting(p -> p.equals(Partition.of("x"))));
        assertThat(readAll(table)).containsExactly("3,c,z", "5,e,y");
    }

    @Test
    void overwriteRetriedAfterLostRaceAlsoReplacesTheRacingAppend() {
        Table table = partitionedTable();
        append(table, 1, List.of(row(1L, "a", "x"), row(2L, "b", "y")));
        List<CommitMessage> messages = write(table, List.of(row(5L, "e", "y")));
        // Another writer appends into the overwritten partition just before our snapshot.
        io.beforeNth(
                Op.LINK,
                named("snapshot-"),
                1,
                (path, real) -> {
                    Table racer = Table.load(real, location, "db.t");
                    TestTables.commit(
                            racer,
                            "racer",
                            CommitRequest.of(
                                    1,
                                    write(racer, List.of(row(3L, "c", "y"), row(4L, "d", "x")))));
                });

        long id =
                TestTables.commit(
                                table.withDynamicOptions(Map.of("commit.retry-wait", "1 ms")),
                                "user",
                                CommitRequest.of(2, messages)
                                        .overwriting(p -> p.equals(Partition.of("y"))))
                        .snapshotId()
                        .getAsLong();

        assertThat(id).isEqualTo(3);
        assertThat(readAll(table)).containsExactly("1,a,x", "4,d,x", "5,e,y");
        assertThat(TableInternals.context(table).snapshotManager().snapshot(3).records().total())
                .isEqualTo(3);
    }

    @Test
    void compactionOfAFileNoLongerLiveIsDroppedAndItsOutputDeleted() {
        Table table = table();
        List<CommitMessage> first = write(table, List.of(row(1L, "a"), row(2L, "b")));
        TestTables.commit(table, "user", CommitRequest.of(1, first));
        DataFile original = first.get(0).newFiles().get(0);
        DataFile rewritten =
                write(table, List.of(row(1L, "a"), row(2L, "b"))).get(0).newFiles().get(0);
        CommitMessage compaction =
                new CommitMessage(Partition.EMPTY, 0, -1, List.of(rewritten), List.of(original));

        assertThat(
                        TestTables.commit(
                                        table,
                                        "compactor",
                                        CommitRequest.of(2, List.of(compaction)))
                                .snapshotId())
                .hasValue(2);
        Snapshot compacted = TableInternals.context(table).snapshotManager().latest();
        assertThat(compacted.commit().kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(compacted.records().total()).isEqualTo(2);
        assertThat(compacted.records().delta()).isZero();
        assertThat(readAll(table)).containsExactly("1,a", "2,b");

        // A second rewrite of the same original file cannot apply: that file is gone. It is
        // dropped, its output deleted, and the table stays as it was.
        List<DataFile> staleOutput = write(table, List.of(row(1L, "a"))).get(0).newFiles();
        CommitMessage stale =
                new CommitMessage(Partition.EMPTY, 0, -1, staleOutput, List.of(original));
        TableCommit.Result result =
                TestTables.commit(table, "compactor", CommitRequest.of(3, List.of(stale)));
        assertThat(result.snapshotId()).isEmpty();
        assertThat(result.droppedCompactions()).containsExactly(stale);
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(2);
        assertThat(exists(table, staleOutput.get(0))).as("dropped output deleted").isFalse();
        assertThat(exists(table, rewritten)).as("live file kept").isTrue();
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @Test
    void aDroppedCompactionLeavesTheCommitsNewRowsAndItsOtherCompactionsPublished() {
        Table table = table();
        List<CommitMessage> first = write(table, List.of(row(1L, "a"), row(2L, "b")));
        List<CommitMessage> second = write(table, List.of(row(3L, "c")));
        TestTables.commit(table, "user", CommitRequest.of(1, first));
        TestTables.commit(table, "user", CommitRequest.of(2, second));
        DataFile a = first.get(0).newFiles().get(0);
        DataFile c = second.get(0).newFiles().get(0);
        // Another writer rewrites file a first.
        DataFile theirs =
                write(table, List.of(row(1L, "a"), row(2L, "b"))).get(0).newFiles().get(0);
        TestTables.commit(
                table,
                "other",
                CommitRequest.of(
                        1,
                        List.of(
                                new CommitMessage(
                                        Partition.EMPTY, 0, -1, List.of(theirs), List.of(a)))));

        List<CommitMessage> appended = write(table, List.of(row(4L, "d")));
        DataFile lost = write(table, List.of(row(1L, "a"), row(2L, "b"))).get(0).newFiles().get(0);
        DataFile kept = write(table, List.of(row(3L, "c"))).get(0).newFiles().get(0);
        // A later compaction of the same commit that rewrites the dropped one's output is dropped
        // with it; one of a file still live applies.
        DataFile chained =
                write(table, List.of(row(1L, "a"), row(2L, "b"))).get(0).newFiles().get(0);
        CommitMessage lostCompaction =
                new CommitMessage(Partition.EMPTY, 0, -1, List.of(lost), List.of(a));
        CommitMessage chainedCompaction =
                new CommitMessage(Partition.EMPTY, 0, -1, List.of(chained), List.of(lost));
        CommitMessage keptCompaction =
                new CommitMessage(Partition.EMPTY, 0, -1, List.of(kept), List.of(c));
        List<CommitMessage> messages = new ArrayList<>(appended);
        messages.addAll(List.of(lostCompaction, chainedCompaction, keptCompaction));

        TableCommit.Result result = TestTables.commit(table, "user", CommitRequest.of(3, messages));

        assertThat(result.snapshotId()).hasValue(5);
        assertThat(result.droppedCompactions()).containsExactly(lostCompaction, chainedCompaction);
        assertThat(TableInternals.context(table).snapshotManager().snapshot(4).commit().kind())
                .isEqualTo(CommitKind.APPEND);
        assertThat(TableInternals.context(table).snapshotManager().snapshot(5).commit().kind())
                .isEqualTo(CommitKind.COMPACT);
        assertThat(exists(table, lost)).isFalse();
        assertThat(exists(table, chained)).isFalse();
        assertThat(exists(table, kept)).isTrue();
        assertThat(readAll(table)).containsExactlyInAnyOrder("1,a", "2,b", "3,c", "4,d");
    }

    private static boolean exists(Table table, DataFile file) {
        try {
            return table.io()
                    .exists(new Path(table.bucketPath(Partition.EMPTY, 0), file.fileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aCommitFindsTheLatestIdentifierOfItsUser() {
        Table table = table();
        TableCommit mine = new TableCommit(TableInternals.context(table), "job-a", 0, List.of());
        TableCommit other = new TableCommit(TableInternals.context(table), "job-b", 0, List.of());
        List<CommitMessage> rows = write(table, List.of(row(1L, "a")));
        mine.commit(CommitRequest.of(5, rows));
        other.commit(CommitRequest.of(900, write(table, List.of(row(2L, "b")))));

        // A committer of the same user that knows nothing yet looks back for it.
        assertThat(resumed(table, "job-a", 0).commit(CommitRequest.of(4, rows)).alreadyCommitted())
                .as("earlier identifier")
                .isTrue();
        assertThat(resumed(table, "job-a", 0).commit(CommitRequest.of(5, rows)).alreadyCommitted())
                .as("same identifier")
                .isTrue();
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(2);
        assertThat(
                        resumed(table, "job-c", 0)
                                .commit(CommitRequest.of(5, List.of()))
                                .alreadyCommitted())
                .as("another user")
                .isFalse();

        // Snapshots of others older than the user's start end the search.
        long otherTime =
                TableInternals.context(table).snapshotManager().snapshot(2).commit().timeMillis();
        long skew = 10 * 60 * 1000;
        assertThat(
                        resumed(table, "job-a", otherTime + 1 + skew)
                                .commit(CommitRequest.of(5, List.of()))
                                .alreadyCommitted())
                .isFalse();
        assertThat(
                        resumed(table, "job-a", otherTime + skew)
                                .commit(CommitRequest.of(5, List.of()))
                                .alreadyCommitted())
                .isTrue();
    }

    @Test
    void aUserThatBeganFromASnapshotIsLookedForOnlyAfterIt() {
        Table table = table();
        List<CommitMessage> rows = write(table, List.of(row(1L, "a")));
        new TableCommit(TableInternals.context(table), "plan-a", 0, List.of())
                .commit(CommitRequest.of(5, rows));
        for (long i = 0; i < 3; i++) {
            new TableCommit(TableInternals.context(table), "job-b", 0, List.of())
                    .commit(CommitRequest.of(10 + i, write(table, List.of(row(2L + i, "b")))));
        }
        // plan-a published snapshot 1: a committer told it began after snapshot 0 finds it, one
        // told it began after snapshot 1 stops at snapshot 2, though its start time (0) would have
        // it read back to the first.
        assertThat(resumedAfter(table, "plan-a", 0).commit(CommitRequest.of(5, rows)))
                .extracting(TableCommit.Result::alreadyCommitted, TableCommit.Result::snapshotId)
                .containsExactly(true, OptionalLong.of(1));
        TableCommit.Result afterIt =
                resumedAfter(table, "plan-a", 1).commit(CommitRequest.of(5, List.of()));
        assertThat(afterIt.alreadyCommitted()).isFalse();
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(4);
    }

    private static TableCommit resumedAfter(Table table, String user, long afterSnapshot) {
        return new TableCommit(TableInternals.context(table), user, 0, afterSnapshot, List.of());
    }

    private static TableCommit resumed(Table table, String user, long sinceMillis) {
        return new TableCommit(TableInternals.context(table), user, sinceMillis, List.of());
    }

    private void assertUnchanged(Table table, Set<String> metadataBefore, List<String> rows)
            throws IOException {
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(1);
        assertThat(metadataFiles()).isEqualTo(metadataBefore);
        assertThat(readAll(table)).containsExactlyElementsOf(rows);
    }

    private static boolean dataFilesExist(Table table, List<CommitMessage> messages)
            throws IOException {
        for (CommitMessage m : messages) {
            for (DataFile f : m.newFiles()) {
                if (!table.io()
                        .exists(
                                new Path(
                                        table.bucketPath(m.partition(), m.bucket()),
                                        f.fileName()))) {
                    return false;
                }
            }
        }
        return !messages.isEmpty();
    }

    /** Names of every file under the snapshot and manifest directories. */
    private Set<String> metadataFiles() throws IOException {
        Set<String> all = new TreeSet<>(files("snapshot"));
        all.addAll(files("manifest"));
        return all;
    }

    private Set<String> files(String dir) throws IOException {
        java.nio.file.Path path = Paths.get(tempDir.toString(), dir);
        if (!Files.exists(path)) {
            return Set.of();
        }
        try (Stream<java.nio.file.Path> children = Files.list(path)) {
            return children.map(p -> dir + "/" + p.getFileName())
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }
}
