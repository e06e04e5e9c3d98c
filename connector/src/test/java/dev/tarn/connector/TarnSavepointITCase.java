package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FlinkFileIO;
import java.io.File;
import java.util.concurrent.TimeUnit;
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
 * another parallelism: the table ends up with every row exactly once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnSavepointITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(4);

    private static final long ROWS = 40_000;

    @TempDir File dir;

    private TableResult start(int parallelism, String savepoint) {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(100);
        DataStream<Row> rows = TestJobs.idRows(env, ROWS, 4_000, "ids", id -> Row.of(id, "v" + id));
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
        TableResult first = start(2, null);
        JobClient client = first.getJobClient().orElseThrow();
        Path table = new Path(dir.toURI() + "/t");
        // Let it commit a few checkpoints, then stop halfway.
        while (!new FlinkFileIO().exists(new Path(table, "snapshot/snapshot-3"))) {
            Thread.sleep(50);
        }
        String savepoint =
                client.stopWithSavepoint(
                                false,
                                new Path(dir.toURI() + "/savepoints").toString(),
                                SavepointFormatType.CANONICAL)
                        .get();
        long committedAtStop =
                Table.load(new FlinkFileIO(), table, "t")
                        .snapshotManager()
                        .latest()
                        .records()
                        .total();
        assertThat(committedAtStop).isBetween(1L, ROWS - 1);

        start(3, savepoint).await();

        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(ddl());
        assertThat(TestJobs.single(batch, "SELECT COUNT(*), COUNT(DISTINCT id) FROM t"))
                .isEqualTo("+I[" + ROWS + ", " + ROWS + "]");
    }
}
