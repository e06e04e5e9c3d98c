package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.catalog.StreamingFunctions.FailAt;
import dev.tarn.catalog.StreamingFunctions.Gate;
import dev.tarn.catalog.StreamingFunctions.Slow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
 * Streaming reads of Tarn tables that survive what running jobs meet, as MiniCluster jobs with real
 * writers: a reading job stopped with a savepoint inside a split and restored copies every row
 * once; a Tarn-to-Tarn streaming aggregation that fails over ends equal to the same aggregation in
 * batch; a reader follows a concurrent streaming writer commit by commit, in order; and a data file
 * or snapshot that vanished under a reader fails it with a message naming it, never a skipped row.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TarnStreamingRecoveryITCase {

    /** Slots for two streaming jobs at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    /**
     * Rows per commit: more than a decoded batch (8,192 rows), so a commit's split is emitted in
     * several batches and a checkpoint can fall between them.
     */
    private static final int COMMIT_ROWS = 20_000;

    /** Settings of a job that checkpoints and restarts after a failure. */
    private static final String[] CHECKPOINTED = {
        "execution.checkpointing.interval", "100ms",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "3",
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
        Gate.open();
        for (TableResult job : jobs) {
            Follower.cancelAndAwait(job);
        }
    }

    @Test
    void aReadingJobStoppedWithASavepointInsideASplitIsRestoredWithoutLossOrDuplicate()
            throws Exception {
        // One bucket and commits larger than a batch: the savepoint falls inside a split, and the
        // restored reader must resume there.
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '1')");
        batch.exec("CREATE TABLE db.copy (id INT, name STRING)");
        commitEvents(1);
        Gate.close(COMMIT_ROWS / 2);
        String copy = "INSERT INTO db.copy SELECT gate(id), name FROM db.events";
        JobClient first = submit(copy, null, CHECKPOINTED).getJobClient().orElseThrow();
        Gate.awaitReached();
        // A commit while the reader is held: its split is assigned before the savepoint.
        commitEvents(2);
        Thread.sleep(1000);
        CompletableFuture<String> stopped =
                first.stopWithSavepoint(
                        false,
                        lake.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL);
        Thread.sleep(500); // the savepoint's trigger waits in the held task's mailbox
        Gate.open();
        String savepoint = stopped.get(30, TimeUnit.SECONDS);
        first.getJobExecutionResult().get(30, TimeUnit.SECONDS);
        long atStop = count("db.copy");
        assertThat(atStop % COMMIT_ROWS)
                .as("rows copied at the savepoint (%d) end inside a commit's split", atStop)
                .isNotZero();

        commitEvents(3); // while no job runs
        submit(copy, savepoint, CHECKPOINTED);
        commitEvents(4); // while the restored job runs
        Follower.awaitTrue(() -> count("db.copy") >= 4L * COMMIT_ROWS);
        Thread.sleep(500); // a duplicate would arrive with a later checkpoint
        assertThat(
                        batch.query(
                                "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM db.copy"))
                .containsExactly("+I[80000, 80000, 1, 80000]");
    }

    /** With {@code full-compaction}, each batch write's changelog comes with its end. */
    @ParameterizedTest
    @ValueSource(strings = {"none", "full-compaction"})
    void aStreamingAggregationWithAFailoverEndsEqualToTheBatchAggregation(String producer)
            throws Exception {
        batch.exec(usersDdl("db.users", producer));
        aggregateWithAFailover("db.users", "db.users");
    }

    /**
     * With {@code changelog-producer = 'input'} the reader emits the stored input changes as they
     * are, with no normalizing state after it, so the input must be a complete changelog: {@code
     * users} is written by a streaming job following {@code users_src}, whose upserts and deletes
     * Flink turns into a changelog with the old rows.
     */
    @Test
    void aStreamingAggregationOverAStoredChangelogWithAFailoverEndsEqualToBatch() throws Exception {
        batch.exec(usersDdl("db.users_src", "none"));
        batch.exec(usersDdl("db.users", "input"));
        submit("INSERT INTO db.users SELECT * FROM db.users_src", null, CHECKPOINTED);
        aggregateWithAFailover("db.users_src", "db.users");
        assertThat(batch.query("SELECT * FROM db.users"))
                .as("the copy of users_src")
                .containsExactlyInAnyOrderElementsOf(batch.query("SELECT * FROM db.users_src"));
    }

    @Test
    void aReaderSeesEveryCommitOfAConcurrentStreamingWriterOnceAndInOrder() throws Exception {
        int rows = 20_000;
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '1')");
        Follower follower = new Follower(submit("SELECT id FROM db.events", null));
        follower.awaitRunning();
        TableEnvironment writer =
                LakeSql.streaming(
                        lake,
                        "parallelism.default",
                        "1",
                        "execution.checkpointing.interval",
                        "100ms");
        writer.executeSql(
                "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + rows
                        + "', 'number-of-rows' = '"
                        + rows
                        + "')");
        writer.createTemporarySystemFunction("slow", Slow.class);
        TableResult write =
                writer.executeSql(
                        "INSERT INTO db.events SELECT slow(id), 'n' || CAST(id AS STRING)"
                                + " FROM gen");
        jobs.add(write);

        int[] ids = new int[rows];
        ids[0] = follower.takeInts(1)[0];
        assertThat(write.getJobClient().orElseThrow().getJobStatus().get().isTerminalState())
                .as("the writer still runs when its first rows arrive")
                .isFalse();
        System.arraycopy(follower.takeInts(rows - 1), 0, ids, 1, rows - 1);
        assertOneToN(ids, "the ids in the order read");
        follower.assertNothingMore();
        try (Stream<Path> snapshots = Files.list(lake.resolve("db.db/events/snapshot"))) {
            assertThat(snapshots.filter(p -> p.getFileName().toString().startsWith("snapshot-")))
                    .as("the writer's commits")
                    .hasSizeGreaterThan(10);
        }
    }

    @Test
    void aDataFileThatVanishedUnderARunningReaderFailsItNamingTheFile() throws Exception {
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '1')");
        batch.exec("CREATE TABLE db.copy (id INT, name STRING)");
        commitEvents(1);
        Gate.close(100);
        TableResult read =
                submit(
                        "INSERT INTO db.copy SELECT gate(id), name FROM db.events",
                        null,
                        "execution.checkpointing.interval",
                        "100ms",
                        "restart-strategy.type",
                        "none");
        Gate.awaitReached();
        // While the reader is held in the first snapshot, the second is committed and loses its
        // data file before the reader opens it.
        Set<Path> before = dataFiles("db.db/events/bucket-0");
        batch.insertIds("db.events", COMMIT_ROWS + 1, COMMIT_ROWS + 10);
        Set<Path> added = dataFiles("db.db/events/bucket-0");
        added.removeAll(before);
        assertThat(added).as("the second snapshot's data files").hasSize(1);
        Path missing = added.iterator().next();
        Files.delete(missing);
        Gate.open();

        assertThat(failure(read, 30))
                .contains("Data file ")
                .contains(
                        missing.getFileName()
                                + " of table lake.db.events (snapshot 2) is missing. Restore the"
                                + " file");
        int[] passed = Gate.passed().stream().mapToInt(Integer::intValue).sorted().toArray();
        assertOneToN(passed, "the ids read, sorted: the first snapshot, whole, nothing after it");
        assertThat(passed).hasSize(COMMIT_ROWS);
    }

    @Test
    void aNextSnapshotThatExpiredUnderAStoppedReaderFailsItsRestore() throws Exception {
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '1')");
        batch.exec("CREATE TABLE db.copy (id INT, name STRING)");
        batch.insertIds("db.events", 1, 10);
        batch.insertIds("db.events", 11, 20);
        String copy = "INSERT INTO db.copy SELECT * FROM db.events";
        JobClient first = submit(copy, null, CHECKPOINTED).getJobClient().orElseThrow();
        Follower.awaitTrue(() -> count("db.copy") == 20);
        String savepoint =
                first.stopWithSavepoint(
                                false,
                                lake.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(30, TimeUnit.SECONDS);

        // While the reader is stopped, its next snapshot (3) comes and expires, and 4 stays.
        batch.insertIds("db.events", 21, 30);
        batch.insertIds("db.events", 31, 40);
        for (int id = 1; id <= 3; id++) {
            Files.delete(lake.resolve("db.db/events/snapshot/snapshot-" + id));
        }
        TableResult restored =
                submit(
                        copy,
                        savepoint,
                        "execution.checkpointing.interval",
                        "100ms",
                        "restart-strategy.type",
                        "none");
        // At once: the restored enumerator's first probe finds its next snapshot gone.
        assertThat(failure(restored, 8))
                .contains(
                        "Snapshot 3 of table lake.db.events, the next one this streaming read"
                                + " needs, has expired (the table keeps snapshots 4 to 4)")
                .contains("'snapshot.num-retained.min'", "'consumer-id'");
        assertThat(count("db.copy")).as("rows copied: none read past the gap").isEqualTo(20);
    }

    // ---- the aggregation ----

    private static String usersDdl(String table, String producer) {
        return "CREATE TABLE "
                + table
                + " (id INT, dt STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('bucket' = '2', 'changelog-producer' = '"
                + producer
                + "')";
    }

    /**
     * Runs {@code SELECT dt, SUM(balance), COUNT(*) FROM read GROUP BY dt} as a streaming insert
     * into a primary-key table while upserts that move keys between groups, deletes and a
     * compaction of {@code read} are committed to {@code write}; it fails once, mid-stream, at a
     * balance of a middle commit, and must converge to the same aggregation over a batch read of
     * {@code read}.
     */
    private void aggregateWithAFailover(String write, String read) throws Exception {
        batch.exec(
                "CREATE TABLE db.user_totals (dt STRING, total BIGINT, n BIGINT,"
                        + " PRIMARY KEY (dt) NOT ENFORCED)");
        batch.exec(
                "CREATE TEMPORARY TABLE ids (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '2000', 'number-of-rows' = '2000')");
        String upsert = "INSERT INTO " + write + " SELECT id, ";
        batch.exec(upsert + "'g' || CAST(MOD(id, 4) AS STRING), CAST(id AS BIGINT) FROM ids");
        FailAt.reset(-1000);
        TableResult job =
                submit(
                        "INSERT INTO db.user_totals SELECT dt, SUM(fail_at(balance)), COUNT(*)"
                                + " FROM "
                                + read
                                + " GROUP BY dt",
                        null,
                        CHECKPOINTED);
        awaitRunning(job);
        String group = "'g' || CAST(MOD(id + %d, 4) AS STRING)";
        batch.exec(upsert + String.format(group, 1) + ", id * 2 FROM ids WHERE MOD(id, 3) = 0");
        batch.exec("DELETE FROM " + write + " WHERE MOD(id, 7) = 2");
        // The failure strikes at id 1000's new balance.
        batch.exec(
                upsert
                        + "'g' || CAST(MOD(id, 3) AS STRING),"
                        + " CASE WHEN id = 1000 THEN -1000 ELSE id * 3 END FROM ids"
                        + " WHERE MOD(id, 5) = 0");
        batch.exec("CALL lake.sys.compact(`table` => '" + read + "')");
        // Group g3 empties: its row must leave user_totals.
        batch.exec(
                "INSERT INTO "
                        + write
                        + " SELECT id, 'g0', balance + 1 FROM "
                        + write
                        + " WHERE dt = 'g3'");
        batch.exec(upsert + "'g1', CAST(id AS BIGINT) FROM ids WHERE MOD(id, 14) = 2");
        batch.exec("DELETE FROM " + write + " WHERE dt = 'g2' AND MOD(id, 2) = 1");

        String aggregation = "SELECT dt, SUM(balance), COUNT(*) FROM " + read + " GROUP BY dt";
        Follower.awaitTrue(
                () ->
                        sorted(batch.query("SELECT * FROM db.user_totals"))
                                .equals(sorted(batch.query(aggregation))));
        assertThat(FailAt.failed()).as("the injected failure struck").isTrue();
        List<String> expected = sorted(batch.query(aggregation));
        assertThat(expected).as("groups left").hasSize(3);
        Thread.sleep(1000); // a duplicate would arrive with a later checkpoint
        assertThat(sorted(batch.query("SELECT * FROM db.user_totals"))).isEqualTo(expected);
    }

    // ---- helpers ----

    /** Submits {@code sql} as a streaming job, restored from {@code savepoint} unless null. */
    private TableResult submit(String sql, String savepoint, String... config) {
        TableEnvironment env = LakeSql.streaming(lake, config);
        if (savepoint != null) {
            env.getConfig().set("execution.state-recovery.path", savepoint);
        }
        env.createTemporarySystemFunction("gate", Gate.class);
        env.createTemporarySystemFunction("fail_at", FailAt.class);
        TableResult result = env.executeSql(sql);
        jobs.add(result);
        return result;
    }

    private static void awaitRunning(TableResult job) throws Exception {
        JobClient client = job.getJobClient().orElseThrow();
        Follower.awaitTrue(() -> client.getJobStatus().get().name().equals("RUNNING"));
        Thread.sleep(1000); // the enumerator plans its start when the job starts
    }

    /** Commits the {@code COMMIT_ROWS} events of commit {@code n} (from 1) as one snapshot. */
    private void commitEvents(int n) throws Exception {
        batch.insertIds("db.events", (n - 1) * COMMIT_ROWS + 1, n * COMMIT_ROWS);
    }

    private long count(String table) throws Exception {
        String row = batch.query("SELECT COUNT(*) FROM " + table).get(0);
        return Long.parseLong(row.substring(3, row.length() - 1));
    }

    private Set<Path> dataFiles(String dir) throws Exception {
        try (Stream<Path> files = Files.list(lake.resolve(dir))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .collect(Collectors.toSet());
        }
    }

    /**
     * Waits at most {@code seconds} for {@code job} to fail, and returns the messages of its
     * failure and their causes, one a line.
     */
    private static String failure(TableResult job, int seconds) {
        Throwable thrown =
                org.assertj.core.api.Assertions.catchThrowable(
                        () ->
                                job.getJobClient()
                                        .orElseThrow()
                                        .getJobExecutionResult()
                                        .get(seconds, TimeUnit.SECONDS));
        assertThat(thrown).as("the job failed within %d s", seconds).isNotNull();
        assertThat(thrown)
                .as("the job failed within %d s", seconds)
                .isNotInstanceOf(java.util.concurrent.TimeoutException.class);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }

    /**
     * Asserts that {@code ids} are 1, 2, ..., naming the first that is not, with its neighbours.
     */
    private static void assertOneToN(int[] ids, String what) {
        int at = IntStream.range(0, ids.length).filter(i -> ids[i] != i + 1).findFirst().orElse(-1);
        assertThat(at)
                .as(
                        "%s: the first position (of %d) not holding its id; ids from there: %s",
                        what,
                        ids.length,
                        at < 0
                                ? "-"
                                : java.util.Arrays.toString(
                                        java.util.Arrays.copyOfRange(
                                                ids, at, Math.min(ids.length, at + 8))))
                .isEqualTo(-1);
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }
}
