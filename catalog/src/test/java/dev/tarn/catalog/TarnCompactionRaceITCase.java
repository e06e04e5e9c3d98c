package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
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
 * Writers and compaction jobs racing for the same bucket of a primary-key table, through SQL. The
 * table sums a counter per key (aggregation engine), so a row published twice or lost shows in the
 * sums. A compaction that loses the race is dropped: the statement or the streaming job that wrote
 * the rows goes on, and its rows are in the table exactly once.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TarnCompactionRaceITCase {

    /** Slots for a streaming job at parallelism 2 beside the compaction jobs of the procedure. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path warehouse;

    private TableEnvironment batch() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "1");
        register(env);
        return env;
    }

    private void register(TableEnvironment env) {
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG lake");
        env.executeSql("CREATE DATABASE IF NOT EXISTS db");
    }

    private static List<Row> rows(TableEnvironment env, String sql) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(sql).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    private Table table(String name) {
        return Table.load(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(warehouse.toUri() + "/db.db/" + name),
                "db." + name);
    }

    private static List<Snapshot> snapshots(Table table) {
        TableMetadata manager = table.metadata();
        List<Snapshot> all = new ArrayList<>();
        for (long id = 1; id <= manager.latestSnapshotId().orElse(0); id++) {
            all.add(manager.snapshot(id));
        }
        return all;
    }

    @Test
    void concurrentInsertsIntoOneBucketEachLandOnceOrNotAtAll() throws Exception {
        // Every insert compacts its bucket fully, so concurrent inserts race on the same files.
        batch().executeSql(
                        "CREATE TABLE db.agg (k INT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT"
                                + " ENFORCED) WITH ('bucket' = '1', 'merge-engine' ="
                                + " 'aggregation', 'fields.n.aggregate-function' = 'sum',"
                                + " 'full-compaction.delta-commits' = '1', 'commit.retry-wait' ="
                                + " '1 ms')")
                .await();
        int writers = 3;
        int inserts = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<int[]>> outcomes = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            outcomes.add(
                    pool.submit(
                            () -> {
                                TableEnvironment env = batch();
                                int succeeded = 0;
                                int failed = 0;
                                for (int i = 0; i < inserts; i++) {
                                    try {
                                        env.executeSql(
                                                        "INSERT INTO db.agg VALUES ("
                                                                + (writer * 10 + 1)
                                                                + ", 1), ("
                                                                + (writer * 10 + 2)
                                                                + ", 1)")
                                                .await();
                                        succeeded++;
                                    } catch (Exception e) {
                                        failed++;
                                    }
                                }
                                return new int[] {succeeded, failed};
                            }));
        }
        Map<Integer, Long> expected = new HashMap<>();
        for (int w = 0; w < writers; w++) {
            int[] outcome = outcomes.get(w).get();
            // Appends never conflict: every statement publishes its rows and succeeds.
            assertThat(outcome)
                    .as("successes and failures of writer %d", w)
                    .containsExactly(inserts, 0);
            expected.put(w * 10 + 1, (long) outcome[0]);
            expected.put(w * 10 + 2, (long) outcome[0]);
        }
        pool.shutdown();

        Map<Integer, Long> sums = new HashMap<>();
        for (Row r : rows(batch(), "SELECT k, n FROM db.agg")) {
            assertThat(sums.put((Integer) r.getField(0), (Long) r.getField(1))).isNull();
        }
        assertThat(sums).isEqualTo(expected);
        List<Snapshot> history = snapshots(table("agg"));
        long appends = history.stream().filter(s -> s.commit().kind() == CommitKind.APPEND).count();
        assertThat(appends).as("one APPEND snapshot per statement").isEqualTo(writers * inserts);
    }

    @Test
    void aStreamingUpsertJobFinishesWithEveryKeyWhileCompactionsRunBesideIt() throws Exception {
        long keys = 20_000;
        long rowsPerKey = 8;
        batch().executeSql(
                        "CREATE TABLE db.counts (k BIGINT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT"
                                + " ENFORCED) WITH ('bucket' = '2', 'merge-engine' ="
                                + " 'aggregation', 'fields.n.aggregate-function' = 'sum',"
                                + " 'num-sorted-run.compaction-trigger' = '2',"
                                + " 'commit.retry-wait' = '1 ms')")
                .await();

        // No restart strategy: a failed commit would fail the job, not hide in a failover.
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(150);
        DataStream<Row> input =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> i,
                                        keys * rowsPerKey,
                                        RateLimiterStrategy.perSecond(40_000),
                                        Types.LONG),
                                WatermarkStrategy.noWatermarks(),
                                "counts")
                        .map(i -> Row.of(i % keys, 1L))
                        .returns(Types.ROW_NAMED(new String[] {"k", "n"}, Types.LONG, Types.LONG));
        StreamTableEnvironment streaming = StreamTableEnvironment.create(env);
        register(streaming);
        TableResult job = streaming.fromDataStream(input).executeInsert("db.counts");

        AtomicBoolean done = new AtomicBoolean();
        List<String> compactResults = new ArrayList<>();
        Thread compactor =
                new Thread(
                        () -> {
                            TableEnvironment calls = batch();
                            while (!done.get()) {
                                try {
                                    rows(calls, "CALL lake.sys.compact('db.counts')")
                                            .forEach(r -> compactResults.add(r.toString()));
                                    Thread.sleep(300);
                                } catch (Exception e) {
                                    compactResults.add("failed: " + e);
                                }
                            }
                        });
        compactor.start();
        try {
            job.await();
        } finally {
            done.set(true);
            compactor.join();
        }

        assertThat(compactResults).noneMatch(r -> r.startsWith("failed"));
        List<Snapshot> history = snapshots(table("counts"));
        long procedureCompactions =
                history.stream().filter(s -> s.commit().user().startsWith("compact-")).count();
        assertThat(procedureCompactions)
                .as("compactions of the procedure between the job's commits")
                .isGreaterThanOrEqualTo(2);
        List<Row> sums = rows(batch(), "SELECT COUNT(*), SUM(n), MIN(n), MAX(n) FROM db.counts");
        assertThat(sums).containsExactly(Row.of(keys, keys * rowsPerKey, rowsPerKey, rowsPerKey));
    }
}
