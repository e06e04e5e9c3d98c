package dev.tarn.format.snapshot;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two committers racing for every snapshot id on a store whose create-if-absent is not atomic
 * ({@link NonExclusiveFileIO}), where the commit lock is the only exclusion: without it commits are
 * lost, with {@code commit.lock} = {@code jdbc} on a real PostgreSQL every commit counts.
 */
class CommitLockRaceTest {

    private static final int COMMITTERS = 2;
    private static final int ROUNDS = 15;

    @TempDir java.nio.file.Path tempDir;

    @Test
    void withoutALockRacingCommittersLoseCommits() throws Exception {
        Race race = race(Map.of());

        assertThat(race.published()).isLessThan(race.committed());
        assertThat(race.rowsRead()).isLessThan(race.rowsCommitted());
    }

    @Test
    void withTheJdbcLockEveryCommitOfRacingCommittersIsPublishedOnce() throws Exception {
        Race race =
                race(
                        Map.of(
                                "commit.lock",
                                "jdbc",
                                "commit.lock.jdbc.url",
                                LockDatabase.url(),
                                "commit.lock.jdbc.user",
                                LockDatabase.USER));

        assertThat(race.committed()).isEqualTo(COMMITTERS * ROUNDS);
        assertThat(race.published()).isEqualTo(race.committed());
        assertThat(race.rowsRead()).isEqualTo(race.rowsCommitted());
    }

    /**
     * What a race left: commits each committer was told succeeded, the distinct commits the
     * snapshots hold, and rows committed and read back.
     */
    private record Race(int committed, int published, int rowsCommitted, int rowsRead) {}

    private Race race(Map<String, String> lock) throws Exception {
        Path location = new Path(tempDir.toUri());
        Map<String, String> options = new HashMap<>(lock);
        options.put("commit.retry-wait", "1 ms");
        options.put("commit.max-retries", "1000");
        NonExclusiveFileIO io = new NonExclusiveFileIO();
        Table table = TestTables.create(io, location, ID_V, List.of(), options);
        CyclicBarrier round = new CyclicBarrier(COMMITTERS);
        ExecutorService pool = Executors.newFixedThreadPool(COMMITTERS);
        List<Future<Integer>> results = new ArrayList<>();
        for (int c = 0; c < COMMITTERS; c++) {
            int committer = c;
            results.add(
                    pool.submit(
                            () -> {
                                // Each committer loads its own table, as a separate job would.
                                Table own = Table.load(io, location, TestTables.NAME);
                                TableCommit commit = own.newCommit("writer-" + committer);
                                int committed = 0;
                                for (int i = 0; i < ROUNDS; i++) {
                                    List<CommitMessage> files =
                                            write(own, List.of(row(committer * 1000L + i, "r")));
                                    round.await(30, TimeUnit.SECONDS);
                                    if (commit.commit(CommitRequest.of(i + 1, files))
                                            .snapshotId()
                                            .isPresent()) {
                                        committed++;
                                    }
                                }
                                return committed;
                            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
        int committed = 0;
        for (Future<Integer> result : results) {
            committed += result.get();
        }
        SnapshotManager snapshots = TableInternals.context(table).snapshotManager();
        Set<String> published = new HashSet<>();
        for (long id = 1; id <= snapshots.latest().id(); id++) {
            Snapshot s = snapshots.snapshot(id);
            published.add(s.commit().user() + "/" + s.commit().identifier());
        }
        return new Race(committed, published.size(), committed, readAll(table).size());
    }
}
