package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one commit call, {@link TableCommit#commit(CommitRequest)}: it publishes only what no
 * snapshot of its commit user holds yet, for every kind of commit, and runs its hooks after every
 * call.
 */
class CommitRequestTest {

    @TempDir java.nio.file.Path tempDir;

    private Table table() {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.toUri()),
                ID_V_DT,
                List.of("dt"),
                Map.of());
    }

    /** A hook that records what it was called with, and fails when told to. */
    private static final class RecordingHook implements CommitHook {
        final List<TableCommit.Result> results = new ArrayList<>();
        boolean fail;
        boolean closed;

        @Override
        public void afterCommit(TableCommit.Result result) {
            results.add(result);
            if (fail) {
                throw new IllegalStateException("injected hook failure");
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void aRetriedCommitPublishesNothingAndSaysItWasCommitted() {
        Table table = table();
        RecordingHook hook = new RecordingHook();
        CommitRequest request = CommitRequest.of(7, write(table, List.of(row(1L, "a", "x"))));
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of(hook))) {
            TableCommit.Result first = commit.commit(request);
            assertThat(first.snapshotId()).hasValue(1);
            assertThat(first.alreadyCommitted()).isFalse();

            TableCommit.Result retry = commit.commit(request);
            assertThat(retry.alreadyCommitted()).isTrue();
            assertThat(retry.snapshotId()).as("the user's snapshot that holds it").hasValue(1);
            assertThat(hook.results).containsExactly(first, retry);
        }
        assertThat(hook.closed).isTrue();
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(1);
        assertThat(readAll(table)).containsExactly("1,a,x");
    }

    @Test
    void aRetriedOverwriteIsNotAppliedTwice() {
        Table table = table();
        try (TableCommit commit = table.newCommit("loader")) {
            commit.commit(CommitRequest.of(1, write(table, List.of(row(1L, "a", "x")))));
        }
        CommitRequest overwrite =
                CommitRequest.of(2, write(table, List.of(row(2L, "b", "x"))))
                        .overwriting(p -> p.equals(Partition.of("x")));
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of())) {
            assertThat(commit.commit(overwrite).snapshotId()).hasValue(2);
            // Another writer appends into the partition; a retry of the overwrite must not
            // delete that row.
            try (TableCommit other = table.newCommit("other")) {
                other.commit(CommitRequest.of(1, write(table, List.of(row(3L, "c", "x")))));
            }
            TableCommit.Result retry = commit.commit(overwrite);
            assertThat(retry.alreadyCommitted()).isTrue();
        }
        assertThat(TableInternals.context(table).snapshotManager().snapshot(2).commit().kind())
                .isEqualTo(CommitKind.OVERWRITE);
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(3);
        assertThat(readAll(table)).containsExactly("2,b,x", "3,c,x");
    }

    @Test
    void theLookBackReachesPastOtherUsersSnapshotsToTheUsersStart() {
        Table table = table();
        CommitRequest request = CommitRequest.of(5, write(table, List.of(row(1L, "a", "x"))));
        long began = System.currentTimeMillis();
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", began, List.of())) {
            commit.commit(request);
        }
        try (TableCommit other = table.newCommit("other")) {
            other.commit(CommitRequest.of(1, write(table, List.of(row(2L, "b", "x")))));
        }
        // The restored job's committer finds commit 5 behind the other user's snapshot.
        try (TableCommit restored =
                new TableCommit(TableInternals.context(table), "job", began, List.of())) {
            assertThat(restored.commit(request).alreadyCommitted()).isTrue();
        }
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(2);
    }

    @Test
    void aFailingHookDoesNotFailThePublishedCommit() {
        Table table = table();
        RecordingHook hook = new RecordingHook();
        hook.fail = true;
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of(hook))) {
            TableCommit.Result result =
                    commit.commit(CommitRequest.of(1, write(table, List.of(row(1L, "a", "x")))));
            assertThat(result.snapshotId()).hasValue(1);
        }
        assertThat(hook.results).hasSize(1);
        assertThat(readAll(table)).containsExactly("1,a,x");
    }

    @Test
    void aCommittersLaterCommitsReadNoMoreSnapshotsThanThePublishNeeds() {
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        Table table =
                TestTables.create(io, new Path(tempDir.toUri()), ID_V_DT, List.of("dt"), Map.of());
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of())) {
            commit.commit(CommitRequest.of(1, write(table, List.of(row(1L, "a", "x")))));
            List<CommitMessage> messages = write(table, List.of(row(2L, "b", "x")));
            io.resetCounts();
            commit.commit(CommitRequest.of(2, messages));
            // The attempt's own requests (re-read the snapshot it builds on, probe the next id,
            // create the new snapshot, move the hint); the look-back for the user's commits, known
            // from the last one, adds none (it took 5 more before the committer remembered).
            int reads = 0;
            for (Op op : Op.values()) {
                reads += io.calls(op, named("snapshot-").or(named("LATEST")).or(named("EARLIEST")));
            }
            assertThat(reads).isEqualTo(4);
        }
    }

    @Test
    void aCommitterBuildingOnItsOwnSnapshotReadsNoManifestListBack() {
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        Table table =
                TestTables.create(io, new Path(tempDir.toUri()), ID_V_DT, List.of("dt"), Map.of());
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of())) {
            commit.commit(CommitRequest.of(1, write(table, List.of(row(1L, "a", "x")))));
            List<CommitMessage> messages = write(table, List.of(row(2L, "b", "x")));
            io.resetCounts();
            commit.commit(CommitRequest.of(2, messages));
        }
        assertThat(io.calls(Op.READ_ALL_BYTES, named("manifest-list-")))
                .as("manifest lists read by the second commit")
                .isZero();
        assertThat(readAll(table)).containsExactly("1,a,x", "2,b,x");
    }

    @Test
    void theTablesCommitterExpiresOldSnapshotsAfterItsCommits() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        ID_V_DT,
                        List.of("dt"),
                        Map.of(
                                "snapshot.num-retained.min", "1",
                                "snapshot.num-retained.max", "2"));
        for (long c = 1; c <= 4; c++) {
            // Closing the committer waits for the expiration it started.
            try (TableCommit commit = table.newCommit("job-" + c)) {
                commit.commit(CommitRequest.of(c, write(table, List.of(row(c, "v", "x")))));
            }
        }
        assertThat(TableInternals.context(table).snapshotManager().earliestId()).hasValue(3);
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(4);
    }
}
