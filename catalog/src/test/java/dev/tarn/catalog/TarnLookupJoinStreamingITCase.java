package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming lookup joins whose facts are a streaming read of a Tarn table, so a test decides when
 * each fact arrives: the join follows the dimension table's commits, retries a miss with Flink's
 * LOOKUP hint, and restores from a savepoint.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TarnLookupJoinStreamingITCase {

    /** Slots for a streaming join at parallelism 2 beside the batch jobs that feed it. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    private static final String JOIN =
            "SELECT %s f.fid, f.k, d.name FROM (SELECT *, PROCTIME() AS pt FROM db.facts) AS f"
                    + " %s db.customers FOR SYSTEM_TIME AS OF f.pt AS d ON f.k = d.id";

    @TempDir Path lake;
    private LakeSql batch;
    private final List<TableResult> jobs = new ArrayList<>();

    @BeforeEach
    void createTables() throws Exception {
        batch = LakeSql.open(lake);
        batch.exec("CREATE TABLE db.facts (fid INT, k BIGINT) WITH ('bucket' = '1')");
        batch.exec(
                "CREATE TABLE db.customers (id BIGINT, name STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        batch.exec("INSERT INTO db.customers VALUES (1, 'v1'), (2, 'v1'), (3, 'v1')");
    }

    @AfterEach
    void cancel() throws Exception {
        for (TableResult job : jobs) {
            Follower.cancelAndAwait(job);
        }
    }

    private TableResult submit(String sql, String... config) {
        TableResult result = LakeSql.streaming(lake, config).executeSql(sql);
        jobs.add(result);
        return result;
    }

    private static List<String> sorted(List<String> rows) {
        rows.sort(null);
        return rows;
    }

    @Test
    void followsUpdatesAndDeletesOfTheTable() throws Exception {
        try (Follower join = new Follower(submit(String.format(JOIN, "", "LEFT JOIN")))) {
            join.awaitRunning();
            batch.exec("INSERT INTO db.facts VALUES (1, 1), (2, 2)");
            assertThat(sorted(join.take(2))).containsExactly("+I[1, 1, v1]", "+I[2, 2, v1]");

            // Another job updates one row and deletes another.
            batch.exec("INSERT INTO db.customers VALUES (1, 'v2'), (4, 'v1')");
            batch.exec("DELETE FROM db.customers WHERE id = 2");
            // Facts that arrive after those commits join the current rows once the join has
            // applied them (within a discovery interval or two).
            List<String> expected = null;
            List<String> joined = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (int fid = 10; System.nanoTime() < deadline; fid += 3) {
                batch.exec(
                        String.format(
                                "INSERT INTO db.facts VALUES (%d, 1), (%d, 2), (%d, 4)",
                                fid, fid + 1, fid + 2));
                joined = sorted(join.take(3));
                expected =
                        List.of(
                                "+I[" + fid + ", 1, v2]",
                                "+I[" + (fid + 1) + ", 2, null]",
                                "+I[" + (fid + 2) + ", 4, v1]");
                if (joined.equals(expected)) {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(joined).isEqualTo(expected);
        }
    }

    @Test
    void failsNamingTheTableWhenItIsDropped() throws Exception {
        try (Follower join = new Follower(submit(String.format(JOIN, "", "LEFT JOIN")))) {
            join.awaitRunning();
            batch.exec("INSERT INTO db.facts VALUES (1, 1)");
            assertThat(join.take(1)).containsExactly("+I[1, 1, v1]");
            batch.exec("DROP TABLE db.customers");
            Thread.sleep(1500); // a refresh or two find the table gone
            batch.exec("INSERT INTO db.facts VALUES (2, 1)");
            assertThat(join.awaitFailure())
                    .contains("Lookup join on table lake.db.customers cannot follow the table");
        }
    }

    @Test
    void retryHintJoinsARowThatArrivesLater() throws Exception {
        String hint =
                "/*+ LOOKUP('table' = 'd', 'retry-predicate' = 'lookup_miss',"
                        + " 'retry-strategy' = 'fixed_delay', 'fixed-delay' = '500ms',"
                        + " 'max-attempts' = '40') */";
        try (Follower join = new Follower(submit(String.format(JOIN, hint, "JOIN")))) {
            join.awaitRunning();
            batch.exec("INSERT INTO db.facts VALUES (1, 7)");
            // Fact 1 misses and is retried (a synchronous retry holds the task thread); nothing
            // joins it until its row commits.
            join.assertNothingFor(2000);
            batch.exec("INSERT INTO db.customers VALUES (7, 'late')");
            assertThat(join.take(1)).containsExactly("+I[1, 7, late]");
        }
    }

    @Test
    void restoresFromASavepoint() throws Exception {
        batch.exec("CREATE TABLE db.joined (fid INT, k BIGINT, name STRING)");
        String insert = "INSERT INTO db.joined " + String.format(JOIN, "", "LEFT JOIN");
        String[] checkpointed = {"execution.checkpointing.interval", "100ms"};
        TableResult first = submit(insert, checkpointed);
        JobClient client = first.getJobClient().orElseThrow();
        Follower.awaitTrue(() -> client.getJobStatus().get().name().equals("RUNNING"));
        Thread.sleep(1000); // the facts' enumerator plans its start when the job starts
        batch.exec("INSERT INTO db.facts VALUES (1, 1), (2, 9)");
        Follower.awaitTrue(() -> count() >= 2);
        CompletableFuture<String> stopped =
                client.stopWithSavepoint(
                        false,
                        lake.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL);
        String savepoint = stopped.get(30, TimeUnit.SECONDS);

        batch.exec("INSERT INTO db.customers VALUES (9, 'v9')");
        batch.exec("INSERT INTO db.facts VALUES (3, 9), (4, 3)"); // while no job runs
        submit(
                insert,
                "execution.checkpointing.interval",
                "100ms",
                "execution.state-recovery.path",
                savepoint);
        Follower.awaitTrue(() -> count() >= 4);
        Thread.sleep(500); // a duplicate would arrive with a later checkpoint
        assertThat(sorted(batch.query("SELECT * FROM db.joined")))
                .containsExactly("+I[1, 1, v1]", "+I[2, 9, null]", "+I[3, 9, v9]", "+I[4, 3, v1]");
    }

    private long count() throws Exception {
        String row = batch.query("SELECT COUNT(*) FROM db.joined").get(0);
        return Long.parseLong(row.substring(3, row.length() - 1));
    }
}
