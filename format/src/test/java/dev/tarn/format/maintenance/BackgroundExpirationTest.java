package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.LifecycleTables.commit;
import static dev.tarn.format.maintenance.LifecycleTables.snapshotIds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expiration after commits reads nothing while its memory of the oldest snapshot shows that
 * nothing can expire, and expires as soon as something can.
 */
class BackgroundExpirationTest {

    @TempDir Path dir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private final List<ExpireResult> runs = new CopyOnWriteArrayList<>();

    /** Snapshots 1 to 5, committed without hooks, and a committer whose hook is the expirer. */
    private Table table(Map<String, String> options) {
        Table table = LifecycleTables.create(io, dir, options);
        for (long i = 1; i <= 5; i++) {
            commit(table, i, i + 1);
        }
        return table;
    }

    /** Commits one row through {@code commit} (identifier {@code id}); its hook runs after it. */
    private static void commitThrough(Table table, TableCommit commit, long id) {
        commit.commit(
                CommitRequest.of(id, TestTables.write(table, List.of(TestTables.row(id, "v")))));
    }

    @Test
    void aRunAfterACommitReadsNothingWhileNothingCanExpire() throws Exception {
        Table table =
                table(
                        Map.of(
                                "snapshot.num-retained.min", "3",
                                "snapshot.num-retained.max", "100",
                                "snapshot.time-retained", "1 h"));
        BackgroundExpiration expirer =
                new BackgroundExpiration(TableInternals.context(table), runs::add);
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of(expirer))) {
            commitThrough(table, commit, 6);
            expirer.drain();
            assertThat(runs).as("the first run reads the table").hasSize(1);
            assertThat(runs.get(0).snapshots()).isZero();

            // Snapshot 7 by another committer; then the run its commit would trigger here.
            long seven = commit(table, 7, 8);
            io.resetCounts();
            expirer.afterCommit(
                    new TableCommit.Result(OptionalLong.of(seven), List.of(), List.of(), false));
            expirer.drain();
            assertThat(io.calls())
                    .as("file-system calls of a run that can expire nothing")
                    .isEmpty();
            assertThat(expirer.skippedRuns()).isPositive();
            assertThat(snapshotIds(table)).containsExactlyElementsOf(range(1, 7));
        }
    }

    @Test
    void aRunExpiresOnceTheSnapshotsExceedTheMostKept() throws Exception {
        Table table =
                table(
                        Map.of(
                                "snapshot.num-retained.min", "3",
                                "snapshot.num-retained.max", "6",
                                "snapshot.time-retained", "1 h"));
        BackgroundExpiration expirer =
                new BackgroundExpiration(TableInternals.context(table), runs::add);
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of(expirer))) {
            commitThrough(table, commit, 6);
            expirer.drain();
            assertThat(runs.get(runs.size() - 1).snapshots()).isZero();
            commitThrough(table, commit, 7);
            expirer.drain();
            assertThat(runs.get(runs.size() - 1).snapshots()).as("snapshots expired").isOne();
            assertThat(snapshotIds(table)).containsExactlyElementsOf(range(2, 7));
        }
    }

    @Test
    void aRunExpiresOnceTheOldestSnapshotOutlivesTheTimeRetained() throws Exception {
        Table table =
                table(
                        Map.of(
                                "snapshot.num-retained.min", "2",
                                "snapshot.time-retained", "300 ms"));
        BackgroundExpiration expirer =
                new BackgroundExpiration(TableInternals.context(table), runs::add);
        try (TableCommit commit =
                new TableCommit(TableInternals.context(table), "job", 0, List.of(expirer))) {
            commitThrough(table, commit, 6);
            expirer.drain();
            assertThat(runs.get(runs.size() - 1).snapshots()).isZero();
            Thread.sleep(350);
            commitThrough(table, commit, 7);
            expirer.drain();
            assertThat(snapshotIds(table)).containsExactlyElementsOf(range(6, 7));
        }
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }
}
