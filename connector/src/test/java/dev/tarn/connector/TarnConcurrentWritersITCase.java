package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FlinkFileIO;
import dev.tarn.format.snapshot.SnapshotManager;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two streaming jobs write different partitions of one table at the same time: their commits race
 * for snapshot ids, the losers re-read and retry, and both jobs' rows all arrive once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnConcurrentWritersITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(4);

    private static final long ROWS = 20_000;

    @TempDir File dir;

    private String ddl() {
        return "CREATE TABLE t (id BIGINT, p STRING) PARTITIONED BY (p) WITH ('connector' = 'tarn',"
                + " 'path' = '"
                + new Path(dir.toURI())
                + "/t', 'commit.retry-wait' = '1 ms')";
    }

    private TableResult start(String partition) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(50);
        DataStream<Row> rows =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> i,
                                        ROWS,
                                        RateLimiterStrategy.perSecond(5_000),
                                        Types.LONG),
                                WatermarkStrategy.noWatermarks(),
                                "ids-" + partition)
                        .map(id -> Row.of(id, partition))
                        .returns(
                                Types.ROW_NAMED(
                                        new String[] {"id", "p"}, Types.LONG, Types.STRING));
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(ddl());
        return tables.fromDataStream(rows).executeInsert("t");
    }

    @Test
    void twoJobsWritingDifferentPartitionsBothSucceed() throws Exception {
        TableResult a = start("a");
        TableResult b = start("b");
        a.await();
        b.await();

        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(ddl());
        List<String> counts = new ArrayList<>();
        try (CloseableIterator<Row> it =
                batch.executeSql(
                                "SELECT p, COUNT(*), COUNT(DISTINCT id) FROM t GROUP BY p ORDER BY p")
                        .collect()) {
            it.forEachRemaining(r -> counts.add(r.toString()));
        }
        assertThat(counts)
                .containsExactly(
                        "+I[a, " + ROWS + ", " + ROWS + "]", "+I[b, " + ROWS + ", " + ROWS + "]");

        // The jobs really committed side by side: their snapshots interleave.
        SnapshotManager snapshots =
                Table.load(new FlinkFileIO(), new Path(dir.toURI() + "/t"), "t").snapshotManager();
        int switches = 0;
        String previous = null;
        for (long id = 1; id <= snapshots.latestId().orElseThrow(); id++) {
            String user = snapshots.snapshot(id).commit().user();
            switches += previous != null && !previous.equals(user) ? 1 : 0;
            previous = user;
        }
        assertThat(switches).isGreaterThan(1);
    }
}
