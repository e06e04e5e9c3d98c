package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import java.io.File;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Streaming INSERT: snapshots are published at completed checkpoints, one per checkpoint. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnStreamingSinkITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(2);

    @TempDir File dir;

    private TableEnvironment streaming(String checkpointInterval) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "2");
        if (checkpointInterval != null) {
            env.getConfig().set("execution.checkpointing.interval", checkpointInterval);
        }
        env.executeSql(
                "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                        + new Path(dir.toURI())
                        + "/t')");
        return env;
    }

    @Test
    void checkpointsPublishSnapshotsTaggedWithTheirCheckpointIds() throws Exception {
        TableEnvironment env = streaming("200 ms");
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '20000', 'number-of-rows' = '40000',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '40000')");
        // Values that follow from the id, so the table can be checked against the input.
        env.executeSql("INSERT INTO t SELECT id, 'v' || CAST(id AS STRING) FROM gen").await();

        TableMetadata snapshots =
                Table.load(FileIO.flinkFileSystems(), new Path(dir.toURI() + "/t"), "t").metadata();
        long latest = snapshots.latestSnapshotId().orElseThrow();
        assertThat(latest).as("several checkpoints, several snapshots").isGreaterThan(1);
        assertThat(snapshots.latestSnapshot().orElseThrow().records().total()).isEqualTo(40000);
        Set<Long> identifiers = new HashSet<>();
        String user = snapshots.snapshot(1).commit().user();
        for (long id = 1; id <= latest; id++) {
            Snapshot s = snapshots.snapshot(id);
            assertThat(s.commit().user()).isEqualTo(user);
            assertThat(s.records().delta()).as("no empty snapshot").isPositive();
            assertThat(identifiers.add(s.commit().identifier())).isTrue();
        }

        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(
                "CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'tarn', 'path' = '"
                        + new Path(dir.toURI())
                        + "/t')");
        RowChecksum.assertSameRows(
                "the rows of the table",
                TestJobs.collect(batch, "SELECT id, v FROM t"),
                LongStream.rangeClosed(1, 40000).mapToObj(id -> Row.of(id, "v" + id)).toList());
    }

    @Test
    void unboundedInsertWithoutCheckpointingIsRefusedWithHowToEnableIt() {
        TableEnvironment env = streaming(null);
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT, v STRING) WITH ('connector' = 'datagen')");
        assertThatThrownBy(() -> env.executeSql("INSERT INTO t SELECT * FROM gen"))
                .hasStackTraceContaining("without checkpointing")
                .hasStackTraceContaining("execution.checkpointing.interval");
    }
}
