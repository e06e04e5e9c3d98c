package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
 * Streaming SELECT over Tarn tables through SQL: a query that follows the table sees each commit of
 * a writer once, in order, and nothing for a compaction; a primary-key table's changes keep a
 * downstream aggregation equal to the same aggregation in batch; start modes, consumers, and the
 * refusal of bad start options.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnStreamingReadITCase {

    /** Slots for three following queries at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    @TempDir Path lake;
    private LakeSql batch;
    private final List<Follower> followers = new ArrayList<>();

    @BeforeEach
    void open() {
        batch = LakeSql.open(lake);
    }

    @AfterEach
    void cancel() throws Exception {
        for (Follower f : followers) {
            f.close();
        }
    }

    /** A streaming environment over the same warehouse, its jobs at parallelism 2. */
    private TableEnvironment streaming(String... config) {
        return LakeSql.streaming(lake, config);
    }

    private Follower follow(String query, String... config) {
        Follower f = new Follower(streaming(config).executeSql(query));
        followers.add(f);
        return f;
    }

    @Test
    void appendTableEmitsEachCommitOnceAndNothingForCompaction() throws Exception {
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '2')");
        batch.exec("INSERT INTO db.events VALUES (1, 'a'), (2, 'b')");
        Follower f = follow("SELECT * FROM db.events");
        assertThat(f.take(2)).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");

        batch.exec("INSERT INTO db.events VALUES (3, 'c')");
        assertThat(f.take(1)).containsExactly("+I[3, c]");
        batch.exec("INSERT INTO db.events VALUES (4, 'd'), (5, 'e')");
        // A compaction rewrites files without changing a row: nothing to emit.
        batch.exec("CALL lake.sys.compact(`table` => 'db.events')");
        // An overwrite is skipped by default: its rows are not changes to follow.
        batch.exec("INSERT OVERWRITE db.events VALUES (9, 'z')");
        batch.exec("INSERT INTO db.events VALUES (6, 'f')");
        assertThat(f.take(3)).containsExactlyInAnyOrder("+I[4, d]", "+I[5, e]", "+I[6, f]");
        f.assertNothingMore();
    }

    @Test
    void overwriteIsFollowedAsDeletionsWhenAskedFor() throws Exception {
        batch.exec("CREATE TABLE db.t (id INT, dt STRING) PARTITIONED BY (dt)");
        batch.exec("INSERT INTO db.t VALUES (1, 'x'), (2, 'y')");
        Follower f =
                follow(
                        "SELECT * FROM db.t /*+ OPTIONS('scan.mode' = 'latest',"
                                + " 'streaming-read-overwrite' = 'true') */");
        f.awaitRunning();
        batch.exec("INSERT OVERWRITE db.t PARTITION (dt = 'x') VALUES (3)");
        assertThat(f.take(2)).containsExactlyInAnyOrder("-D[1, x]", "+I[3, x]");
    }

    @Test
    void primaryKeyChangesKeepAnAggregationEqualToBatch() throws Exception {
        batch.exec(
                "CREATE TABLE db.users (id INT, dt STRING, balance BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        batch.exec("INSERT INTO db.users VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 30)");
        Follower f = follow("SELECT dt, SUM(balance), COUNT(*) FROM db.users GROUP BY dt");
        // Keys move between groups, change values, go and come back.
        batch.exec("INSERT INTO db.users VALUES (1, 'b', 11), (4, 'c', 40)");
        batch.exec("DELETE FROM db.users WHERE id = 2");
        batch.exec("INSERT INTO db.users VALUES (2, 'c', 5), (3, 'a', 1), (5, 'a', 7)");
        batch.exec("CALL lake.sys.compact(`table` => 'db.users')");
        batch.exec("DELETE FROM db.users WHERE id = 5");
        batch.exec("INSERT INTO db.users VALUES (6, 'b', 100)");

        Map<String, String> expected = new TreeMap<>();
        for (String row :
                batch.query("SELECT dt, SUM(balance), COUNT(*) FROM db.users GROUP BY dt")) {
            expected.put(row.substring(3, row.indexOf(',')), row.substring(3));
        }
        assertThat(expected).hasSize(3);
        f.awaitMaterialized(expected);
    }

    /**
     * With {@code changelog-producer = 'none'} a read from a full snapshot completes the upserts
     * itself: the old row of each update and delete comes from the reader, and the plan has no
     * normalizing operator; a read from {@code latest}, which never saw the rows it would retract,
     * and one with the option off, emit upserts that Flink normalizes.
     */
    @Test
    void aReadFromAFullSnapshotCompletesItsChangelogWithoutANormalizingOperator() throws Exception {
        batch.exec(
                "CREATE TABLE db.users (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        batch.exec("INSERT INTO db.users VALUES (1, 'a'), (2, 'b')");
        TableEnvironment env = streaming();
        assertThat(env.explainSql("SELECT * FROM db.users")).doesNotContain("ChangelogNormalize");
        assertThat(env.explainSql("SELECT v FROM db.users")).doesNotContain("ChangelogNormalize");
        assertThat(env.explainSql("SELECT * FROM db.users /*+ OPTIONS('scan.mode' = 'latest') */"))
                .contains("ChangelogNormalize");
        assertThat(
                        env.explainSql(
                                "SELECT * FROM db.users /*+ OPTIONS("
                                        + "'streaming-read.lookup-changelog' = 'false') */"))
                .contains("ChangelogNormalize");

        Follower f = follow("SELECT v FROM db.users");
        assertThat(f.take(2)).containsExactlyInAnyOrder("+I[a]", "+I[b]");
        batch.exec("INSERT INTO db.users VALUES (1, 'a2'), (3, 'c'), (2, 'b')");
        assertThat(f.take(3)).containsExactlyInAnyOrder("-U[a]", "+U[a2]", "+I[c]");
        batch.exec("DELETE FROM db.users WHERE id = 2");
        assertThat(f.take(1)).containsExactly("-D[b]");
        f.assertNothingMore();
    }

    @Test
    void inputChangelogPassesThroughAsWritten() throws Exception {
        batch.exec(
                "CREATE TABLE db.cl (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2', 'changelog-producer' = 'input')");
        batch.exec("INSERT INTO db.cl VALUES (1, 'a'), (2, 'b')");
        Follower f = follow("SELECT * FROM db.cl");
        // The full phase: the current rows.
        assertThat(f.take(2)).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");
        // Then exactly what the writers took in: an insert-only batch stays inserts, a DELETE a
        // deletion with the row it removed.
        batch.exec("INSERT INTO db.cl VALUES (1, 'c')");
        assertThat(f.take(1)).containsExactly("+I[1, c]");
        batch.exec("DELETE FROM db.cl WHERE id = 2");
        assertThat(f.take(1)).containsExactly("-D[2, b]");
        batch.exec("CALL lake.sys.compact(`table` => 'db.cl')");
        batch.exec("INSERT INTO db.cl VALUES (3, 'd')");
        assertThat(f.take(1)).containsExactly("+I[3, d]");
        f.assertNothingMore();
    }

    /**
     * The writers compute the changes of the rows: at each flush ({@code lookup}) or at each full
     * compaction, which a batch write does at its end ({@code full-compaction}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"lookup", "full-compaction"})
    void aComputedChangelogIsTheChangesOfTheRows(String producer) throws Exception {
        // One bucket: the changes of a commit come in key order.
        batch.exec(
                "CREATE TABLE db.lk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '1', 'changelog-producer' = '"
                        + producer
                        + "')");
        batch.exec("INSERT INTO db.lk VALUES (1, 'a'), (2, 'b')");
        Follower f = follow("SELECT * FROM db.lk");
        assertThat(f.take(2)).containsExactly("+I[1, a]", "+I[2, b]");
        // An insert-only statement that replaces a row: the writer looks up the old one.
        batch.exec("INSERT INTO db.lk VALUES (1, 'c'), (3, 'd')");
        assertThat(f.take(3)).containsExactly("-U[1, a]", "+U[1, c]", "+I[3, d]");
        batch.exec("INSERT INTO db.lk VALUES (1, 'c')"); // the same row: no change
        batch.exec("DELETE FROM db.lk WHERE id = 2");
        assertThat(f.take(1)).containsExactly("-D[2, b]");
        batch.exec("CALL lake.sys.compact(`table` => 'db.lk')");
        batch.exec("INSERT INTO db.lk VALUES (2, 'e'), (3, 'f')");
        assertThat(f.take(3)).containsExactly("+I[2, e]", "-U[3, d]", "+U[3, f]");
        f.assertNothingMore();
    }

    @ParameterizedTest
    @ValueSource(strings = {"lookup", "full-compaction"})
    void computedChangesKeepAnAggregationEqualToBatch(String producer) throws Exception {
        batch.exec(
                "CREATE TABLE db.users (id INT, dt STRING, balance BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2', 'changelog-producer' = '"
                        + producer
                        + "')");
        batch.exec("INSERT INTO db.users VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 30)");
        Follower f = follow("SELECT dt, SUM(balance), COUNT(*) FROM db.users GROUP BY dt");
        // Keys move between groups, change values, go and come back.
        batch.exec("INSERT INTO db.users VALUES (1, 'b', 11), (4, 'c', 40)");
        batch.exec("DELETE FROM db.users WHERE id = 2");
        batch.exec("INSERT INTO db.users VALUES (2, 'c', 5), (3, 'a', 1), (5, 'a', 7)");
        batch.exec("CALL lake.sys.compact(`table` => 'db.users')");
        batch.exec("DELETE FROM db.users WHERE id = 5");
        batch.exec("INSERT INTO db.users VALUES (6, 'b', 100), (1, 'c', 11)");
        f.awaitMaterialized(groups("db.users", 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lookup", "full-compaction"})
    void aComputedChangelogMakesAnAggregationTableFollowable(String producer) throws Exception {
        batch.exec(
                "CREATE TABLE db.totals (id INT, dt STRING, balance BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2',"
                        + " 'merge-engine' = 'aggregation', 'fields.balance.aggregate-function' ="
                        + " 'sum', 'changelog-producer' = '"
                        + producer
                        + "')");
        batch.exec(
                "CREATE TABLE db.src (id INT, dt STRING, balance BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2', 'changelog-producer' = 'lookup')");
        Follower f = follow("SELECT dt, SUM(balance), COUNT(*) FROM db.totals GROUP BY dt");
        // Upserts add to a key's balance and move it to their dt.
        batch.exec("INSERT INTO db.totals VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 30)");
        batch.exec("INSERT INTO db.totals VALUES (1, 'b', 5), (4, 'c', 40)");
        // Another table's changelog, bounded: its -U, +U and -D retract and add.
        batch.exec("INSERT INTO db.src VALUES (2, 'c', 7), (5, 'a', 50), (6, 'b', 60)");
        batch.exec("INSERT INTO db.src VALUES (2, 'a', 8)");
        batch.exec("DELETE FROM db.src WHERE id = 6");
        long upTo;
        try (var files = Files.list(lake.resolve("db.db/src/snapshot"))) {
            upTo =
                    files.map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith("snapshot-"))
                            .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length())))
                            .max()
                            .orElseThrow();
        }
        // Checkpointed (the sink asks so of a streaming query): the writer learns the table's
        // files at its first checkpoint, or, if the input ends first, at its end.
        streaming("execution.checkpointing.interval", "200ms")
                .executeSql(
                        "INSERT INTO db.totals SELECT * FROM db.src /*+ OPTIONS("
                                + "'incremental-between' = '0,"
                                + upTo
                                + "') */")
                .await();
        batch.exec("CALL lake.sys.compact(`table` => 'db.totals')");
        batch.exec("INSERT INTO db.totals VALUES (3, 'a', 1), (5, 'c', -50)");
        // Key 6's insert and delete may fold in one flush (its dt becomes null: a group of its
        // own) or in two (its dt stays 'b'): the stream must equal the batch read either way.
        Map<String, String> expected = groups("db.totals", -1);
        assertThat(expected.size()).isBetween(3, 4);
        f.awaitMaterialized(expected);
    }

    /**
     * The batch result of {@code SELECT dt, SUM(balance), COUNT(*) ... GROUP BY dt}, by dt, checked
     * to have {@code expectedGroups} groups (unless negative).
     */
    private Map<String, String> groups(String table, int expectedGroups) throws Exception {
        Map<String, String> expected = new TreeMap<>();
        for (String row :
                batch.query("SELECT dt, SUM(balance), COUNT(*) FROM " + table + " GROUP BY dt")) {
            expected.put(row.substring(3, row.indexOf(',')), row.substring(3));
        }
        if (expectedGroups >= 0) {
            assertThat(expected).hasSize(expectedGroups);
        }
        return expected;
    }

    @Test
    void aFailoverOfTheReadingJobLosesAndDuplicatesNothing() throws Exception {
        // One bucket and large commits: checkpoints and the failure fall inside splits, so a
        // restore must resume in the middle of one.
        batch.exec("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '1')");
        batch.exec("CREATE TABLE db.copy (id INT, name STRING)");
        for (int c = 0; c < 4; c++) {
            writeEvents(c * 5000 + 1, c * 5000 + 5000);
        }
        FailOnce.reset(12_500);
        TableEnvironment env =
                streaming(
                        "execution.checkpointing.interval", "50ms",
                        "restart-strategy.type", "fixed-delay",
                        "restart-strategy.fixed-delay.attempts", "3",
                        "restart-strategy.fixed-delay.delay", "100ms");
        env.createTemporarySystemFunction("fail_once", FailOnce.class);
        TableResult copy =
                env.executeSql("INSERT INTO db.copy SELECT fail_once(id), name FROM db.events");
        try {
            // More commits while it runs, before and after the failure.
            for (int c = 4; c < 8; c++) {
                writeEvents(c * 5000 + 1, c * 5000 + 5000);
            }
            Follower.awaitTrue(
                    () -> {
                        String count = batch.query("SELECT COUNT(*) FROM db.copy").get(0);
                        return Long.parseLong(count.substring(3, count.length() - 1)) >= 40_000;
                    });
            assertThat(FailOnce.failed()).as("the injected failure struck").isTrue();
            Thread.sleep(500); // a duplicate would arrive with a later checkpoint
            assertThat(
                            batch.query(
                                    "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM db.copy"))
                    .containsExactly("+I[40000, 40000, 1, 40000]");
        } finally {
            Follower.cancelAndAwait(copy);
        }
    }

    @Test
    void startModes() throws Exception {
        // One bucket: every split goes to one reader, so the commits arrive in order.
        batch.exec("CREATE TABLE db.s (id INT) WITH ('bucket' = '1')");
        batch.exec("INSERT INTO db.s VALUES (1)");
        batch.exec("INSERT INTO db.s VALUES (2)");
        batch.exec("INSERT INTO db.s VALUES (3)");

        Follower latest = follow("SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'latest') */");
        Follower fromTwo =
                follow(
                        "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-snapshot',"
                                + " 'scan.snapshot-id' = '2') */");
        Follower fullOfTwo =
                follow(
                        "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-snapshot-full',"
                                + " 'scan.snapshot-id' = '2') */");
        assertThat(fromTwo.take(2)).containsExactly("+I[2]", "+I[3]");
        assertThat(fullOfTwo.take(3)).containsExactlyInAnyOrder("+I[1]", "+I[2]", "+I[3]");
        latest.awaitRunning();
        batch.exec("INSERT INTO db.s VALUES (4)");
        assertThat(latest.take(1)).containsExactly("+I[4]");
        assertThat(fromTwo.take(1)).containsExactly("+I[4]");
        assertThat(fullOfTwo.take(1)).containsExactly("+I[4]");

        // From a tag: the changes from its snapshot on (here in the slots of another follower).
        fullOfTwo.close();
        followers.remove(fullOfTwo);
        batch.exec("CALL lake.sys.create_tag('db.s', 'two', 2)");
        Follower fromTag =
                follow(
                        "SELECT * FROM db.s /*+ OPTIONS('scan.tag-name' = 'two',"
                                + " 'scan.mode' = 'from-snapshot') */");
        assertThat(fromTag.take(3)).containsExactly("+I[2]", "+I[3]", "+I[4]");

        // The changes between two snapshots, bounded, in batch mode too.
        assertThat(batch.query("SELECT * FROM db.s /*+ OPTIONS('incremental-between' = '1,3') */"))
                .containsExactlyInAnyOrder("+I[2]", "+I[3]");
    }

    @Test
    void startOptionsAreCheckedAlikeInBatchAndStreaming() throws Exception {
        batch.exec("CREATE TABLE db.s (id INT)");
        batch.exec("INSERT INTO db.s VALUES (1)");
        batch.exec("INSERT INTO db.s VALUES (2)");
        batch.exec("CALL lake.sys.create_tag('db.s', 'one', 1)");
        String in2100 = "4102444800000 (2100-01-01T00:00:00Z)";
        String conflict = "Conflicting options for table lake.db.s: ";
        String snapshotModes = "; it goes with 'default', 'from-snapshot' or 'from-snapshot-full'";
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put(
                "'scan.snapshot-id' = '1', 'scan.timestamp-millis' = '4102444800000'",
                conflict
                        + "'scan.snapshot-id' = 1 and 'scan.timestamp-millis' = "
                        + in2100
                        + " both say what the read starts at; give one");
        refused.put(
                "'scan.tag-name' = 'one', 'incremental-between' = '1,2'",
                conflict
                        + "'scan.tag-name' = 'one' and 'incremental-between' = '1,2' both say what"
                        + " the read starts at; give one");
        refused.put(
                "'incremental-between' = '1,2', 'scan.snapshot-id' = '2'",
                conflict
                        + "'scan.snapshot-id' = 2 and 'incremental-between' = '1,2' both say what"
                        + " the read starts at; give one");
        for (String mode : List.of("from-snapshot", "from-snapshot-full")) {
            refused.put(
                    "'scan.mode' = '" + mode + "'",
                    "Option 'scan.mode' = '"
                            + mode
                            + "' of table lake.db.s needs 'scan.snapshot-id' or 'scan.tag-name':"
                            + " the snapshot to read or start at; give one as a hint");
        }
        refused.put(
                "'scan.mode' = 'from-timestamp'",
                "Option 'scan.mode' = 'from-timestamp' of table lake.db.s needs"
                        + " 'scan.timestamp-millis': the time to read at or start after; give one"
                        + " as a hint");
        refused.put(
                "'scan.mode' = 'latest', 'scan.snapshot-id' = '1'",
                conflict
                        + "'scan.snapshot-id' = 1 does not go with 'scan.mode' = 'latest'"
                        + snapshotModes);
        refused.put(
                "'scan.mode' = 'latest-full', 'scan.tag-name' = 'one'",
                conflict
                        + "'scan.tag-name' = 'one' does not go with 'scan.mode' = 'latest-full'"
                        + snapshotModes);
        refused.put(
                "'scan.mode' = 'from-timestamp', 'scan.snapshot-id' = '1'",
                conflict
                        + "'scan.snapshot-id' = 1 does not go with 'scan.mode' = 'from-timestamp'"
                        + snapshotModes);
        refused.put(
                "'scan.mode' = 'from-snapshot', 'scan.timestamp-millis' = '4102444800000'",
                conflict
                        + "'scan.timestamp-millis' = "
                        + in2100
                        + " does not go with 'scan.mode' = 'from-snapshot'; it goes with 'default'"
                        + " or 'from-timestamp'");
        refused.put(
                "'scan.mode' = 'latest', 'incremental-between' = '1,2'",
                conflict
                        + "'incremental-between' = '1,2' does not go with 'scan.mode' = 'latest';"
                        + " it goes with 'default'");
        TableEnvironment env = streaming();
        refused.forEach(
                (hints, message) -> {
                    String query = "SELECT * FROM db.s /*+ OPTIONS(" + hints + ") */";
                    refused(() -> batch.query(query)).as("batch: " + hints).contains(message);
                    refused(() -> env.executeSql(query))
                            .as("streaming: " + hints)
                            .contains(message);
                });
        // A batch read in any mode reads one snapshot whole: the one its position selects.
        assertThat(
                        batch.query(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-snapshot',"
                                        + " 'scan.snapshot-id' = '1') */"))
                .containsExactly("+I[1]");
        assertThat(
                        batch.query(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-snapshot-full',"
                                        + " 'scan.tag-name' = 'one') */"))
                .containsExactly("+I[1]");
        assertThat(
                        batch.query(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-timestamp',"
                                        + " 'scan.timestamp-millis' = '4102444800000') */"))
                .containsExactlyInAnyOrder("+I[1]", "+I[2]");
        assertThat(batch.query("SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'latest') */"))
                .containsExactlyInAnyOrder("+I[1]", "+I[2]");
        // The snapshot chosen at planning is read, whichever option chose it.
        assertThat(
                        batch.query(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.timestamp-millis' ="
                                        + " '4102444800000') */"))
                .containsExactlyInAnyOrder("+I[1]", "+I[2]");
        assertThat(
                        batch.query(
                                "SELECT * FROM db.s FOR SYSTEM_TIME AS OF TIMESTAMP '2100-01-01"
                                        + " 00:00:00'"))
                .containsExactlyInAnyOrder("+I[1]", "+I[2]");
    }

    @Test
    void badStartOptionsAreRefusedAtPlanning() throws Exception {
        batch.exec("CREATE TABLE db.s (id INT)");
        batch.exec("INSERT INTO db.s VALUES (1)");
        batch.exec("INSERT INTO db.s VALUES (2)");
        TableEnvironment env = streaming();
        refused(() -> env.executeSql("SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'earliest') */"))
                .contains("Invalid value 'earliest' for option 'scan.mode' of table")
                .contains("latest-full");
        refused(
                        () ->
                                env.executeSql(
                                        "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'from-snapshot') */"))
                .contains(
                        "Option 'scan.mode' = 'from-snapshot' of table lake.db.s needs 'scan.snapshot-id'");
        refused(() -> env.executeSql("SELECT * FROM db.s /*+ OPTIONS('scan.snapshot-id' = '7') */"))
                .contains(
                        "Invalid 'scan.snapshot-id' for table lake.db.s: snapshot 7 does not exist; the table has snapshots 1 to 2");
        refused(
                        () ->
                                env.executeSql(
                                        "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'latest', 'scan.snapshot-id' = '1') */"))
                .contains(
                        "Conflicting options for table lake.db.s: 'scan.snapshot-id' = 1 does not go with 'scan.mode' = 'latest'; it goes with 'default', 'from-snapshot' or 'from-snapshot-full'");
        refused(
                        () ->
                                env.executeSql(
                                        "SELECT * FROM db.s /*+ OPTIONS('scan.timestamp-millis' = '1000') */"))
                .contains(
                        "Invalid 'scan.timestamp-millis' = 1000 (1970-01-01T00:00:01Z) for table lake.db.s: it is outside the table's history");
        refused(
                        () ->
                                env.executeSql(
                                        "SELECT * FROM db.s /*+ OPTIONS('incremental-between' = '2,1') */"))
                .contains("Invalid value '2,1' for option 'incremental-between'");
        refused(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.a (id INT) WITH ('changelog-producer' = 'input')"))
                .contains("changelog-producer")
                .contains("primary-key tables only");
        batch.exec(
                "CREATE TABLE db.agg (id INT, n BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'aggregation', 'fields.n.aggregate-function' = 'sum')");
        refused(() -> env.executeSql("SELECT * FROM db.agg"))
                .contains(
                        "Cannot follow table lake.db.agg in a streaming read: its merge-engine 'aggregation' folds the versions of a key")
                .contains("Set 'changelog-producer' = 'lookup' or 'full-compaction'");
    }

    @Test
    void badFullCompactionOptionsAreRefused() {
        for (String value : List.of("0", "-2")) {
            refused(
                            () ->
                                    batch.exec(
                                            "CREATE TABLE db.p (id INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('changelog-producer' = 'full-compaction', 'full-compaction.delta-commits' = '"
                                                    + value
                                                    + "')"))
                    .contains(
                            "Invalid value '"
                                    + value
                                    + "' for option 'full-compaction.delta-commits' of table db.p: must be at least 1");
        }
        refused(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.a (id INT) WITH ('changelog-producer' = 'full-compaction')"))
                .contains(
                        "Option 'changelog-producer' = 'full-compaction' of table db.a applies to primary-key tables only; an append table's new files are its changes");
        refused(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.a (id INT) WITH ('full-compaction.delta-commits' = '2')"))
                .contains(
                        "Option 'full-compaction.delta-commits' of table db.a applies to primary-key tables only; declare a PRIMARY KEY or remove the option");
    }

    @Test
    void aConsumerRestartsWhereItStopped() throws Exception {
        batch.exec("CREATE TABLE db.c (id INT)");
        batch.exec("INSERT INTO db.c VALUES (1), (2)");
        String query = "SELECT * FROM db.c /*+ OPTIONS('consumer-id' = 'billing') */";
        Follower first = follow(query, "execution.checkpointing.interval", "100ms");
        assertThat(first.take(2)).containsExactlyInAnyOrder("+I[1]", "+I[2]");
        Path consumer = lake.resolve("db.db/c/consumer/consumer-billing");
        Follower.awaitTrue(
                () ->
                        Files.exists(consumer)
                                && Files.readString(consumer).contains("\"nextSnapshot\":2"));
        first.close();

        batch.exec("INSERT INTO db.c VALUES (3)");
        Follower second = follow(query, "execution.checkpointing.interval", "100ms");
        assertThat(second.take(1)).containsExactly("+I[3]");
        second.assertNothingMore();
    }

    /** The messages of what {@code action} throws, its causes' included. */
    private static org.assertj.core.api.AbstractStringAssert<?> refused(
            org.assertj.core.api.ThrowableAssert.ThrowingCallable action) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(action);
        assertThat(thrown).as("refused").isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return assertThat(messages.toString());
    }

    /** Commits the events with ids {@code from} to {@code to} as one snapshot. */
    private void writeEvents(int from, int to) throws Exception {
        batch.insertIds("db.events", from, to);
    }

    /**
     * Passes ids through, slowly (a millisecond every 50 rows, so that checkpoints fall within a
     * split), and fails once, at the id it was set to.
     */
    public static final class FailOnce extends org.apache.flink.table.functions.ScalarFunction {

        private static final java.util.concurrent.atomic.AtomicInteger AT =
                new java.util.concurrent.atomic.AtomicInteger();
        private static final java.util.concurrent.atomic.AtomicBoolean FAILED =
                new java.util.concurrent.atomic.AtomicBoolean();

        static void reset(int at) {
            AT.set(at);
            FAILED.set(false);
        }

        static boolean failed() {
            return FAILED.get();
        }

        public Integer eval(Integer id) throws InterruptedException {
            if (id != null && id % 50 == 0) {
                Thread.sleep(1);
            }
            if (id != null && id == AT.get() && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure at id " + id);
            }
            return id;
        }
    }
}
