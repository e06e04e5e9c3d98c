package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.catalog.StreamingFunctions.FailAt;
import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Primary-key tables with {@code deletion-vectors.enabled}, through SQL on a MiniCluster: every
 * merge engine holds what the same table without vectors holds; a streaming writer with a failure
 * between writing vectors and committing them, and one with a compaction job running beside it, end
 * with every row once; time travel reads a snapshot before and after a compaction as it was.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnDeletionVectorsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String[] CHECKPOINTED = {
        "execution.checkpointing.interval", "200ms",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "5",
        "restart-strategy.fixed-delay.delay", "200ms"
    };

    @TempDir Path lake;
    private LakeSql batch;
    private final List<TableResult> jobs = new ArrayList<>();

    @BeforeEach
    void open() {
        batch = LakeSql.open(lake);
    }

    @AfterEach
    void cancel() throws Exception {
        for (TableResult job : jobs) {
            Follower.cancelAndAwait(job);
        }
    }

    private static String options(String engine) {
        return switch (engine) {
            case "partial-update" -> "'merge-engine' = 'partial-update'";
            case "aggregation" ->
                    "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum',"
                            + " 'fields.b.aggregate-function' = 'max'";
            case "first-row" -> "'merge-engine' = 'first-row'";
            default -> "'merge-engine' = 'deduplicate'";
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"deduplicate", "partial-update", "aggregation", "first-row"})
    void everyMergeEngineHoldsWhatTheSameTableWithoutVectorsHolds(String engine) throws Exception {
        for (String table : List.of("dv", "plain")) {
            batch.exec(
                    String.format(
                            "CREATE TABLE db.%s (k INT NOT NULL, a BIGINT, b STRING, PRIMARY KEY"
                                    + " (k) NOT ENFORCED) WITH ('bucket' = '2', %s,"
                                    + " 'deletion-vectors.enabled' = '%s')",
                            table, options(engine), table.equals("dv")));
        }
        batch.exec(
                "CREATE TEMPORARY TABLE ids (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '3000', 'number-of-rows' = '3000')");
        String[] statements = {
            "SELECT MOD(id, 1000), CAST(id AS BIGINT), 'x' || CAST(id AS STRING) FROM ids",
            "SELECT MOD(id, 700), CAST(NULL AS BIGINT), 'y' || CAST(id AS STRING) FROM ids"
                    + " WHERE MOD(id, 3) = 0",
            "SELECT MOD(id, 1300), id * 2, CAST(NULL AS STRING) FROM ids WHERE MOD(id, 2) = 0",
            "SELECT MOD(id, 50), CAST(id AS BIGINT), 'z' FROM ids WHERE id < 200"
        };
        for (String select : statements) {
            for (String table : List.of("dv", "plain")) {
                batch.exec("INSERT INTO db." + table + " " + select);
            }
        }
        List<String> expected = batch.query("SELECT * FROM db.plain");
        assertThat(expected).hasSizeGreaterThan(1000);
        assertThat(batch.query("SELECT * FROM db.dv"))
                .containsExactlyInAnyOrderElementsOf(expected);
        if (!engine.equals("first-row")) { // which keeps every row it has, and writes no other
            assertThat(table("dv").metadata().latestSnapshot().orElseThrow().indexManifest())
                    .as("the writers deleted rows by vectors")
                    .isNotNull();
        }
    }

    @Test
    void aStreamingWriterThatFailsBetweenWritingVectorsAndCommittingThemAddsEveryRowOnce()
            throws Exception {
        batch.exec(
                "CREATE TABLE db.sums (k INT NOT NULL, a BIGINT, b STRING, PRIMARY KEY (k) NOT"
                        + " ENFORCED) WITH ('bucket' = '2', "
                        + options("aggregation")
                        + ", 'deletion-vectors.enabled' = 'true', 'write-buffer-size' = '256 kb')");
        FailAt.reset(30_000);
        TableResult job =
                submit(
                        "INSERT INTO db.sums SELECT CAST(MOD(id, 997) AS INT),"
                                + " fail_at(CAST(id AS BIGINT)), 'v' FROM ids",
                        60_000,
                        5_000);
        job.await(2, TimeUnit.MINUTES);
        assertThat(FailAt.failed()).as("the injected failure struck").isTrue();
        assertThat(batch.query("SELECT COUNT(*), SUM(a) FROM db.sums"))
                .containsExactly("+I[997, " + (60_000L * 60_001 / 2) + "]");
    }

    @Test
    void aStreamingWriterWithACompactionJobBesideItLosesNoDeletion() throws Exception {
        batch.exec(
                "CREATE TABLE db.sums (k INT NOT NULL, a BIGINT, b STRING, PRIMARY KEY (k) NOT"
                        + " ENFORCED) WITH ('bucket' = '2', "
                        + options("aggregation")
                        + ", 'deletion-vectors.enabled' = 'true', 'write-buffer-size' = '256 kb')");
        FailAt.reset(-1);
        TableResult job =
                submit(
                        "INSERT INTO db.sums SELECT CAST(MOD(id, 997) AS INT),"
                                + " fail_at(CAST(id AS BIGINT)), 'v' FROM ids",
                        60_000,
                        4_000);
        JobClient client = job.getJobClient().orElseThrow();
        int compactions = 0;
        while (!client.getJobStatus().get().isGloballyTerminalState() && compactions < 3) {
            if (table("sums").metadata().latestSnapshot().isPresent()) {
                batch.exec("CALL lake.sys.compact(`table` => 'db.sums')");
                compactions++;
            }
            Thread.sleep(1000);
        }
        job.await(2, TimeUnit.MINUTES);
        assertThat(compactions).as("compactions while the writer ran").isPositive();
        assertThat(batch.query("SELECT COUNT(*), SUM(a) FROM db.sums"))
                .containsExactly("+I[997, " + (60_000L * 60_001 / 2) + "]");
    }

    @Test
    void timeTravelReadsSnapshotsBeforeAndAfterACompactionAsTheyWere() throws Exception {
        batch.exec(
                "CREATE TABLE db.t (k INT NOT NULL, a BIGINT, b STRING, PRIMARY KEY (k) NOT"
                        + " ENFORCED) WITH ('bucket' = '1', 'deletion-vectors.enabled' = 'true')");
        batch.exec("INSERT INTO db.t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
        batch.exec("INSERT INTO db.t VALUES (2, 21, 'b2'), (4, 40, 'd')");
        long before = table("t").metadata().latestSnapshotId().orElseThrow();
        batch.exec("CALL lake.sys.compact(`table` => 'db.t')");
        long compacted = table("t").metadata().latestSnapshotId().orElseThrow();
        batch.exec("INSERT INTO db.t VALUES (1, 11, 'a2')");
        List<String> atBefore =
                List.of("+I[1, 10, a]", "+I[2, 21, b2]", "+I[3, 30, c]", "+I[4, 40, d]");
        assertThat(at(before)).containsExactlyInAnyOrderElementsOf(atBefore);
        assertThat(at(compacted)).containsExactlyInAnyOrderElementsOf(atBefore);
        assertThat(batch.query("SELECT * FROM db.t"))
                .containsExactlyInAnyOrder(
                        "+I[1, 11, a2]", "+I[2, 21, b2]", "+I[3, 30, c]", "+I[4, 40, d]");
    }

    private List<String> at(long snapshot) throws Exception {
        return batch.query(
                "SELECT * FROM db.t /*+ OPTIONS('scan.snapshot-id' = '" + snapshot + "') */");
    }

    private Table table(String name) {
        return Table.load(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(lake.toUri() + "/db.db/" + name),
                "db." + name);
    }

    /** A streaming job over {@code rows} ids from a rate-limited source (ids per second). */
    private TableResult submit(String sql, int rows, int perSecond) {
        TableEnvironment env = LakeSql.streaming(lake, CHECKPOINTED);
        env.createTemporarySystemFunction("fail_at", FailAt.class);
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE ids (id INT) WITH ('connector' = 'datagen',"
                                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                                + " 'fields.id.end' = '%d', 'number-of-rows' = '%d',"
                                + " 'rows-per-second' = '%d')",
                        rows, rows, perSecond));
        TableResult result = env.executeSql(sql);
        jobs.add(result);
        return result;
    }
}
