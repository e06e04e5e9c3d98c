package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.FaultyFileSystem.Publication;
import dev.tarn.format.snapshot.Snapshot;
import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streaming job that fails after writing files but before its checkpoint, restarts from the last
 * completed checkpoint and finishes: every input row is in the table exactly once, with all its
 * values, and every checkpoint's rows in one snapshot.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnExactlyOnceITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(2);

    private static final long ROWS = 30_000;

    /** Where the input fails once, as soon as a snapshot has been published. */
    private static final long FAIL_AT = 20_000;

    @TempDir File dir;

    @Test
    void failureBeforeACheckpointLosesAndDuplicatesNothing() throws Exception {
        InjectedFailure.reset();
        String path = new Path(dir.toURI()) + "/t";
        runJob(path, new FailOnce(new InjectedFailure(path, FAIL_AT)));
        Snapshot before = InjectedFailure.latestAtFailure();
        assertThat(before).as("the job failed once, after a snapshot was published").isNotNull();
        assertThat(before.records().total())
                .as("rows committed before the failure")
                .isBetween(1L, ROWS - 1);
        List<Snapshot> commits = assertExactlyOnce(path);
        assertThat(commits)
                .as("the restart went on from the committed snapshot %s", before.id())
                .anyMatch(s -> s.commit().identifier() > before.commit().identifier())
                .allMatch(s -> s.commit().user().equals(before.commit().user()));
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void failureBeforeTheSnapshotIsPublishedIsRetriedFromState(Publication publication)
            throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.BEFORE_PUBLISH, 2);
        String path = publication.path(dir, "t");
        runJob(path, TarnExactlyOnceITCase::row);
        assertInjectedAfterTwoSnapshots(assertExactlyOnce(path));
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void failureAfterTheSnapshotIsPublishedIsNotCommittedTwice(Publication publication)
            throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.AFTER_PUBLISH, 2);
        String path = publication.path(dir, "t");
        runJob(path, TarnExactlyOnceITCase::row);
        assertInjectedAfterTwoSnapshots(assertExactlyOnce(path));
    }

    private static Row row(long id) {
        return Row.of(id, "v" + id);
    }

    private static void runJob(String path, MapFunction<Long, Row> toRow) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(TestJobs.restarting());
        env.setParallelism(2);
        env.enableCheckpointing(100);
        DataStream<Row> rows = TestJobs.idRows(env, ROWS, 20_000, "ids", toRow);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(ddl(path));
        tables.fromDataStream(rows).executeInsert("t").await();
    }

    private static String ddl(String path) {
        return "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                + path
                + "')";
    }

    /** The failure struck once, and two snapshots were published before it. */
    private static void assertInjectedAfterTwoSnapshots(List<Snapshot> commits) {
        assertThat(FaultyFileSystem.failures()).as("injected failures").isEqualTo(1);
        long failed = FaultyFileSystem.failedIdentifier();
        assertThat(commits)
                .as("snapshots published before the failing one")
                .filteredOn(s -> s.commit().identifier() < failed)
                .hasSize(2);
        assertThat(commits)
                .as("the snapshot whose publication failed, published once in the end")
                .filteredOn(s -> s.commit().identifier() == failed)
                .hasSize(1);
    }

    /**
     * The table holds every input row once with all its values, the latest snapshot counts them,
     * and no checkpoint is in two snapshots. Returns the snapshots.
     */
    private static List<Snapshot> assertExactlyOnce(String path) throws Exception {
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(ddl(path));
        RowChecksum.assertSameRows(
                "the rows of the table",
                TestJobs.collect(batch, "SELECT id, v FROM t"),
                LongStream.range(0, ROWS).mapToObj(TarnExactlyOnceITCase::row).toList());

        List<Snapshot> commits = TableSnapshots.assertEachCommitOnce(path);
        assertThat(commits.get(commits.size() - 1).records().total())
                .as("rows the latest snapshot counts")
                .isEqualTo(ROWS);
        return commits;
    }

    /** Turns ids into rows and fails the job once, after a snapshot was published. */
    private static final class FailOnce implements MapFunction<Long, Row> {
        private final InjectedFailure failure;

        FailOnce(InjectedFailure failure) {
            this.failure = failure;
        }

        @Override
        public Row map(Long id) {
            failure.check(id);
            return row(id);
        }
    }
}
