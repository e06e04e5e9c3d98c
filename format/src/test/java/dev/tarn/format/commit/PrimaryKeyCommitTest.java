package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.readAll;
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
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits of a primary-key table's writers racing or failing: two writers rewriting the same files
 * of a bucket, a failure between a commit's APPEND and COMPACT snapshots, and a writer that starts
 * while the commit of an earlier writer of its bucket is still pending.
 */
class PrimaryKeyCommitTest {

    /** {@code (id BIGINT NOT NULL, v STRING)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    @TempDir java.nio.file.Path tempDir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();

    private Table table(Map<String, String> options) {
        return Table.create(
                io,
                new Path(tempDir.toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), List.of("id"), options, null));
    }

    private static GenericRowData row(RowKind kind, long id, String v) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(v));
        row.setRowKind(kind);
        return row;
    }

    /** Commits version {@code version} of keys 1 to 10, each commit one level-0 file. */
    private static List<DataFile> commitVersions(Table table, int versions) throws IOException {
        List<DataFile> files = new ArrayList<>();
        for (int version = 1; version <= versions; version++) {
            try (TableWrite write = table.newWrite()) {
                for (long id = 1; id <= 10; id++) {
                    write.write(row(RowKind.UPDATE_AFTER, id, "v" + version));
                }
                List<CommitMessage> messages = write.prepareCommit(false);
                messages.forEach(m -> files.addAll(m.newFiles()));
                TestTables.commit(table, "loader", CommitRequest.of(version, messages));
            }
        }
        return files;
    }

    private static List<String> versions(int version, String... more) {
        List<String> rows = new ArrayList<>();
        for (long id = 1; id <= 10; id++) {
            rows.add(id + ",v" + version);
        }
        rows.addAll(List.of(more));
        rows.sort(null);
        return rows;
    }

    @Test
    void twoWritersCompactingOneBucketTheLosersCompactionIsDroppedAndItsRowsPublished()
            throws IOException {
        Table table = table(Map.of("bucket", "1", "commit.retry-wait", "1 ms"));
        List<String> originals = commitVersions(table, 3).stream().map(DataFile::fileName).toList();
        List<CommitMessage> secondMessages;
        try (TableWrite first = table.newWrite();
                TableWrite second = table.newWrite()) {
            second.write(row(RowKind.INSERT, 11, "new"));
            first.compactFully(Partition.EMPTY, 0);
            second.compactFully(Partition.EMPTY, 0);
            List<CommitMessage> firstMessages = first.prepareCommit(true);
            secondMessages = second.prepareCommit(true);
            assertThat(firstMessages).allMatch(m -> m.deletedFiles().size() == 3);

            assertThat(
                            TestTables.commit(table, "first", CommitRequest.of(4, firstMessages))
                                    .snapshotId())
                    .hasValue(4);
            TableCommit.Result result =
                    TestTables.commit(table, "second", CommitRequest.of(5, secondMessages));
            // The second writer's new row is published by its APPEND snapshot 5; its compaction,
            // of files the first writer replaced, is dropped.
            assertThat(result.snapshotId()).hasValue(5);
            assertThat(result.droppedCompactions())
                    .singleElement()
                    .satisfies(
                            m ->
                                    assertThat(m.deletedFiles())
                                            .extracting(DataFile::fileName)
                                            .containsAnyElementsOf(originals));
        }
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                .isEqualTo(CommitKind.APPEND);
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(5);
        // The dropped compaction's output is gone; every file the table references is there.
        for (CommitMessage m : secondMessages) {
            if (!m.deletedFiles().isEmpty()) {
                for (DataFile f : m.newFiles()) {
                    assertThat(
                                    io.exists(
                                            new Path(
                                                    table.bucketPath(Partition.EMPTY, 0),
                                                    f.fileName())))
                            .as("output %s of the dropped compaction", f.fileName())
                            .isFalse();
                }
            }
        }
        assertThat(readAll(table)).isEqualTo(versions(3, "11,new"));
    }

    /**
     * Two writers of one bucket of an empty table, each compacting only its own file: their inputs
     * differ, so neither replaces a file of the other, but their outputs at the top level overlap
     * in key range. Both applied, the top level would hold two overlapping files that readers merge
     * as one sorted run, and a later change to a key in both ranges would read twice.
     */
    @Test
    void aCompactionWhoseOutputWouldOverlapAFileOfItsLevelIsDropped() throws IOException {
        Table table = table(Map.of("bucket", "1", "commit.retry-wait", "1 ms"));
        List<CommitMessage> firstMessages;
        List<CommitMessage> secondMessages;
        try (TableWrite first = table.newWrite();
                TableWrite second = table.newWrite()) {
            first.write(row(RowKind.INSERT, 1, "a"));
            first.write(row(RowKind.INSERT, 30, "a"));
            second.write(row(RowKind.INSERT, 10, "b"));
            second.write(row(RowKind.INSERT, 20, "b"));
            first.compactFully(Partition.EMPTY, 0);
            second.compactFully(Partition.EMPTY, 0);
            firstMessages = first.prepareCommit(true);
            secondMessages = second.prepareCommit(true);
        }
        assertThat(
                        TestTables.commit(table, "first", CommitRequest.of(1, firstMessages))
                                .droppedCompactions())
                .isEmpty();
        TableCommit.Result second =
                TestTables.commit(table, "second", CommitRequest.of(2, secondMessages));
        assertThat(second.dropReasons())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("would overlap data file")
                .contains("of the same level in key range");
        // A later change of key 20, in both writers' ranges, reads once.
        try (TableWrite third = table.newWrite()) {
            third.write(row(RowKind.UPDATE_AFTER, 20, "c"));
            TestTables.commit(table, "third", CommitRequest.of(3, third.prepareCommit(false)));
        }
        assertThat(readAll(table)).containsExactly("1,a", "10,b", "20,c", "30,a");
    }

    @Test
    void aRetryAfterAFailureBetweenTheTwoSnapshotsPublishesTheCompaction() throws IOException {
        Table table = table(Map.of("bucket", "1"));
        commitVersions(table, 2);
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.UPDATE_AFTER, 1, "v4"));
            write.compactFully(Partition.EMPTY, 0);
            messages = write.prepareCommit(true);
        }
        // The APPEND snapshot 3 is published, the COMPACT snapshot 4 fails.
        io.failNth(Op.LINK, named("snapshot-"), 2);
        TableCommit commit = table.newCommit("job");
        assertThatThrownBy(() -> commit.commit(CommitRequest.of(7, messages)))
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageStartingWith(
                        "Cannot tell whether snapshot 4 of table db.t was committed: Injected"
                                + " failure of LINK on ")
                .hasMessageEndingWith("/snapshot/snapshot-4");
        io.heal();
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                .isEqualTo(CommitKind.APPEND);
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().identifier())
                .as("the identifier is in a snapshot")
                .isEqualTo(7);

        // The retry, by the same committer or a restored one, publishes only the compaction.
        TableCommit.Result retry = commit.commit(CommitRequest.of(7, messages));
        assertThat(retry.alreadyCommitted()).isFalse();
        assertThat(retry.snapshotId()).hasValue(4);
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(4);
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                .isEqualTo(CommitKind.COMPACT);
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().identifier())
                .isEqualTo(7);
        try (TableCommit restored = table.newCommit("job", 0)) {
            assertThat(restored.commit(CommitRequest.of(7, messages)).alreadyCommitted()).isTrue();
        }
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(4);
        List<String> expected = versions(2);
        expected.set(0, "1,v4");
        assertThat(readAll(table)).isEqualTo(expected);
    }

    @Test
    void aWriterStartedBeforeAPendingCommitSeesItsFilesFromItsFirstCheckpoint()
            throws IOException, InterruptedException {
        // Every commit compacts fully: a tombstone is dropped as soon as it reaches the last level.
        Table table = table(Map.of("bucket", "1", "full-compaction.delta-commits", "1"));
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.INSERT, 1, "old"));
            TestTables.commit(table, "job", CommitRequest.of(1, write.prepareCommit(false)));
        }
        List<CommitMessage> pending;
        try (TableWrite previous = table.newWrite()) {
            previous.write(row(RowKind.UPDATE_AFTER, 1, "pending"));
            pending = previous.prepareCommit(false);
        }
        Thread.sleep(2); // The next writer's sequence numbers start at a later millisecond.

        // A restarted job: its writer gets rows before the committer publishes checkpoint 2.
        try (TableWrite restored = table.newWrite().deferRestore()) {
            restored.write(row(RowKind.DELETE, 1, "pending"));
            TestTables.commit(table, "job", CommitRequest.of(2, pending));
            TestTables.commit(table, "job", CommitRequest.of(3, restored.prepareCommit(false)));
            restored.write(row(RowKind.INSERT, 2, "x"));
            TestTables.commit(table, "job", CommitRequest.of(4, restored.prepareCommit(false)));
        }

        assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                .isEqualTo(CommitKind.COMPACT);
        assertThat(readAll(table)).containsExactly("2,x");
    }

    /** Compacts bucket 0 fully as a job of its own (a compaction procedure) and commits it. */
    private static void compactElsewhere(Table table, long identifier) throws IOException {
        try (TableWrite compactor = table.newWrite()) {
            compactor.compactFully(Partition.EMPTY, 0);
            TableCommit.Result result =
                    TestTables.commit(
                            table,
                            "compactor",
                            CommitRequest.of(identifier, compactor.prepareCommit(true)));
            assertThat(result.droppedCompactions()).isEmpty();
        }
        assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                .isEqualTo(CommitKind.COMPACT);
    }

    private static TableCommit.Result commitNewVersion(
            Table table, TableWrite write, long identifier, String version) throws IOException {
        for (long id = 1; id <= 10; id++) {
            write.write(row(RowKind.UPDATE_AFTER, id, version));
        }
        return TestTables.commit(
                table, "job", CommitRequest.of(identifier, write.prepareCommit(false)));
    }

    @Test
    void aLongRunningWriterWhoseCompactionLostRebuildsItsViewAndCompactsAgain() throws IOException {
        Table table = table(Map.of("bucket", "1", "num-sorted-run.compaction-trigger", "100"));
        commitVersions(table, 3);
        try (TableWrite write = table.newWrite()) {
            assertThat(commitNewVersion(table, write, 10, "w1").droppedCompactions()).isEmpty();

            // The writer hands out a full compaction; a compaction job replaces the same files
            // before the writer's commit runs. The commit publishes the rows and drops the
            // compaction.
            write.compactFully(Partition.EMPTY, 0);
            List<CommitMessage> handedOut = new ArrayList<>();
            for (long id = 1; id <= 10; id++) {
                write.write(row(RowKind.UPDATE_AFTER, id, "w2"));
            }
            handedOut.addAll(write.prepareCommit(false));
            assertThat(handedOut).anyMatch(m -> !m.deletedFiles().isEmpty());
            compactElsewhere(table, 1);
            TableCommit.Result lost =
                    TestTables.commit(table, "job", CommitRequest.of(11, handedOut));
            assertThat(lost.droppedCompactions()).hasSize(1);
            assertThat(readAll(table))
                    .isEqualTo(
                            versions(2).stream()
                                    .map(r -> r.replace(",v2", ",w2"))
                                    .sorted()
                                    .toList());

            // At its next checkpoint the writer sees that, rebuilds its view of the bucket from
            // the table, and its next compaction applies.
            assertThat(commitNewVersion(table, write, 12, "w3").droppedCompactions()).isEmpty();
            write.compactFully(Partition.EMPTY, 0);
            TableCommit.Result compacted = commitNewVersion(table, write, 13, "w4");
            assertThat(compacted.droppedCompactions()).isEmpty();
            assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                    .isEqualTo(CommitKind.COMPACT);
            assertThat(TableInternals.context(table).snapshotManager().latest().commit().user())
                    .isEqualTo("job");

            // A compaction job that runs before the writer hands out its compaction makes the
            // writer throw that compaction away at once.
            write.compactFully(Partition.EMPTY, 0);
            compactElsewhere(table, 2);
            TableCommit.Result discarded = commitNewVersion(table, write, 14, "w5");
            assertThat(discarded.droppedCompactions()).isEmpty();
            assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                    .isEqualTo(CommitKind.APPEND);
            write.compactFully(Partition.EMPTY, 0);
            assertThat(commitNewVersion(table, write, 15, "w6").droppedCompactions()).isEmpty();
            assertThat(TableInternals.context(table).snapshotManager().latest().commit().kind())
                    .isEqualTo(CommitKind.COMPACT);
        }
        assertThat(readAll(table))
                .isEqualTo(
                        versions(2).stream().map(r -> r.replace(",v2", ",w6")).sorted().toList());
    }
}
