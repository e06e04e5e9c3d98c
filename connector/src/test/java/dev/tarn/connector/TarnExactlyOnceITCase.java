package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FlinkFileIO;
import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * A streaming job that fails after writing files but before its checkpoint, restarts from the last
 * completed checkpoint and finishes: every input row is in the table exactly once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnExactlyOnceITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(2);

    private static final long ROWS = 30_000;

    /** Fails the job once, when the input passes {@link #FAIL_AT}. Static: survives restarts. */
    private static final AtomicBoolean FAILED = new AtomicBoolean();

    private static final long FAIL_AT = 17_000;

    @TempDir File dir;

    @Test
    void failureBeforeACheckpointLosesAndDuplicatesNothing() throws Exception {
        FAILED.set(false);
        String path = runJob(new Path(dir.toURI()) + "/t", true);
        assertThat(FAILED).as("the job failed once").isTrue();
        assertExactlyOnce(path);
    }

    @Test
    void failureBeforeTheSnapshotIsPublishedIsRetriedFromState() throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.BEFORE_PUBLISH, 2);
        String path = runJob("faulty://" + dir.getAbsolutePath() + "/t", false);
        assertThat(FaultyFileSystem.failures()).isEqualTo(1);
        assertExactlyOnce(path);
    }

    @Test
    void failureAfterTheSnapshotIsPublishedIsNotCommittedTwice() throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.AFTER_PUBLISH, 2);
        String path = runJob("faulty://" + dir.getAbsolutePath() + "/t", false);
        assertThat(FaultyFileSystem.failures()).isEqualTo(1);
        assertExactlyOnce(path);
    }

    private static String runJob(String path, boolean failInTheMiddle) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(TestJobs.restarting());
        env.setParallelism(2);
        env.enableCheckpointing(100);
        DataStream<Row> rows =
                TestJobs.idRows(
                        env,
                        ROWS,
                        20_000,
                        "ids",
                        failInTheMiddle ? new FailOnce() : id -> Row.of(id, "v" + id));
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(
                "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                        + path
                        + "')");
        tables.fromDataStream(rows).executeInsert("t").await();
        return path;
    }

    private static void assertExactlyOnce(String path) throws Exception {
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(
                "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                        + path
                        + "')");
        assertThat(
                        TestJobs.single(
                                batch,
                                "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM t"))
                .isEqualTo("+I[" + ROWS + ", " + ROWS + ", 0, " + (ROWS - 1) + "]");
        assertThat(
                        Table.load(new FlinkFileIO(), new Path(path), "t")
                                .snapshotManager()
                                .latest()
                                .records()
                                .total())
                .isEqualTo(ROWS);
    }

    private static final class FailOnce implements MapFunction<Long, Row> {
        @Override
        public Row map(Long id) {
            if (id == FAIL_AT && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure at id " + id);
            }
            return Row.of(id, "v" + id);
        }
    }
}
