package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.snapshot.Snapshot;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two streaming jobs write different partitions of one table at the same time: their commits race
 * for snapshot ids, the losers re-read and retry, and both jobs' rows all arrive once, with all
 * their values.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnConcurrentWritersITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(4);

    private static final long ROWS = 20_000;

    @TempDir File dir;

    private String ddl() {
        return "CREATE TABLE t (id BIGINT, p STRING, v STRING) PARTITIONED BY (p)"
                + " WITH ('connector' = 'tarn',"
                + " 'path' = '"
                + new Path(dir.toURI())
                + "/t', 'commit.retry-wait' = '1 ms')";
    }

    private static Row row(long id, String partition) {
        return Row.of(id, partition, partition + id);
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
                        .map(id -> row(id, partition))
                        .returns(
                                Types.ROW_NAMED(
                                        new String[] {"id", "p", "v"},
                                        Types.LONG,
                                        Types.STRING,
                                        Types.STRING));
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
        List<Row> expected = new ArrayList<>();
        for (String partition : List.of("a", "b")) {
            LongStream.range(0, ROWS).forEach(id -> expected.add(row(id, partition)));
        }
        RowChecksum.assertSameRows(
                "the rows of both jobs",
                TestJobs.collect(batch, "SELECT id, p, v FROM t"),
                expected);
        assertThat(
                        TableSnapshots.of(dir.toURI() + "/t")
                                .latestSnapshot()
                                .orElseThrow()
                                .records()
                                .total())
                .isEqualTo(2 * ROWS);

        // The jobs really committed side by side: their snapshots interleave.
        int switches = 0;
        String previous = null;
        for (Snapshot s : TableSnapshots.assertEachCommitOnce(dir.toURI() + "/t")) {
            String user = s.commit().user();
            switches += previous != null && !previous.equals(user) ? 1 : 0;
            previous = user;
        }
        assertThat(switches).isGreaterThan(1);
    }
}
