package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stop a streaming insert with a savepoint halfway, then restore it into a newly planned job with
 * another parallelism: the table ends up with every row exactly once, with all its values.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnSavepointITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(4);

    private static final long ROWS = 40_000;

    /** The input rate of the first job, slow enough to stop it halfway. */
    private static final double FIRST_RATE = 4_000;

    /** The input rate of the restored job, which only has to finish. */
    private static final double RESTORED_RATE = 20_000;

    @TempDir File dir;

    private static Row row(long id) {
        return Row.of(id, "v" + id);
    }

    private TableResult start(int parallelism, double rate, String savepoint) {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(100);
        DataStream<Row> rows = TestJobs.idRows(env, ROWS, rate, "ids", TarnSavepointITCase::row);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(ddl());
        return tables.fromDataStream(rows).executeInsert("t");
    }

    private String ddl() {
        return "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                + new Path(dir.toURI())
                + "/t')";
    }

    @Test
    void stopWithSavepointAndRestoreWithAnotherParallelism() throws Exception {
        TableResult first = start(2, FIRST_RATE, null);
        JobClient client = first.getJobClient().orElseThrow();
        Path table = new Path(dir.toURI() + "/t");
        // Let it commit a few checkpoints, then stop halfway.
        while (!FileIO.flinkFileSystems().exists(new Path(table, "snapshot/snapshot-3"))) {
            Thread.sleep(50);
        }
        String savepoint =
                client.stopWithSavepoint(
                                false,
                                new Path(dir.toURI() + "/savepoints").toString(),
                                SavepointFormatType.CANONICAL)
                        .get();
        Snapshot atStop = TableSnapshots.of(table.toString()).latestSnapshot().orElseThrow();
        assertThat(atStop.records().total())
                .as("rows committed when the first job stopped")
                .isBetween(1L, ROWS - 1);

        start(3, RESTORED_RATE, savepoint).await();

        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(ddl());
        RowChecksum.assertSameRows(
                "the rows of the table",
                TestJobs.collect(batch, "SELECT id, v FROM t"),
                LongStream.range(0, ROWS).mapToObj(TarnSavepointITCase::row).toList());
        List<Snapshot> commits = TableSnapshots.assertEachCommitOnce(table.toString());
        assertThat(commits)
                .as("the restored job committed after the snapshots of the first")
                .anyMatch(s -> s.id() > atStop.id())
                .last()
                .satisfies(s -> assertThat(s.records().total()).isEqualTo(ROWS));
    }
}
