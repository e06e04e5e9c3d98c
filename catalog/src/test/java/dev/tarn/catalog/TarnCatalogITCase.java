package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.catalog.StreamingFunctions.FailAt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flink SQL against a Tarn catalog in batch mode, on one shared MiniCluster: DDL, writes and reads,
 * time travel, and reads of many files on several decode threads per subtask, failing over too.
 */
class TarnCatalogITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String CREATE_EVENTS =
            "CREATE TABLE db.events (id BIGINT, v STRING COMMENT 'the value', dt STRING)"
                    + " COMMENT 'click events' PARTITIONED BY (dt)"
                    + " WITH ('bucket' = '4', 'bucket-key' = 'id')";

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void createCatalog() {
        sql = LakeSql.open(lake);
    }

    private List<String> query(String statement) throws Exception {
        return sql.query(statement);
    }

    private void exec(String statement) throws Exception {
        sql.exec(statement);
    }

    @Test
    void databaseAndTableDdl() throws Exception {
        assertThat(query("SHOW DATABASES")).containsExactlyInAnyOrder("+I[db]", "+I[default]");
        exec(CREATE_EVENTS);
        exec("CREATE TABLE IF NOT EXISTS db.events (x INT)");
        assertThat(query("SHOW TABLES IN db")).containsExactly("+I[events]");
        assertThat(lake.resolve("db.db/events/schema/schema-0")).exists();

        exec("ALTER TABLE db.events SET ('target-file-size' = '64mb')");
        assertThat(Files.readString(lake.resolve("db.db/events/schema/schema-1")))
                .contains("\"target-file-size\" : \"64mb\"");
        exec("ALTER TABLE db.events RESET ('target-file-size')");
        assertThat(Files.readString(lake.resolve("db.db/events/schema/schema-2")))
                .doesNotContain("target-file-size");

        String ddl = query("SHOW CREATE TABLE db.events").get(0);
        assertThat(ddl)
                .contains("`lake`.`db`.`events`")
                .contains("`v` VARCHAR(2147483647) COMMENT 'the value'")
                .contains("COMMENT 'click events'")
                .contains("PARTITIONED BY (`dt`)")
                .contains("'bucket' = '4'")
                .contains("'path' = 'file:" + lake.resolve("db.db/events") + "'");

        exec("ALTER TABLE db.events RENAME TO db.clicks");
        assertThat(query("SHOW TABLES IN db")).containsExactly("+I[clicks]");
        assertThat(lake.resolve("db.db/events")).doesNotExist();

        exec("DROP TABLE IF EXISTS db.events");
        exec("DROP TABLE IF EXISTS db.clicks");
        assertThat(query("SHOW TABLES IN db")).isEmpty();
        assertThat(lake.resolve("db.db/clicks")).doesNotExist();

        exec("DROP DATABASE db");
        assertThat(query("SHOW DATABASES")).containsExactly("+I[default]");
    }

    @Test
    void ddlErrorsNameTheObjectAndTheReason() throws Exception {
        exec(CREATE_EVENTS);
        assertThatThrownBy(() -> exec("CREATE TABLE db.bad (id BIGINT) WITH ('bukket' = '4')"))
                .hasStackTraceContaining("Unknown option 'bukket' for table db.bad");
        assertThatThrownBy(() -> exec("ALTER TABLE db.events ADD extra INT NOT NULL"))
                .hasStackTraceContaining(
                        "Cannot add column extra INT NOT NULL of table db.events: rows written"
                                + " before have no value for it");
        assertThatThrownBy(() -> exec("DROP DATABASE db"))
                .hasStackTraceContaining("Database db in catalog lake is not empty");
        assertThatThrownBy(() -> exec("CREATE TABLE db.events (x INT)"))
                .hasStackTraceContaining("db.events")
                .hasStackTraceContaining("already exists");
    }

    @Test
    void insertAndSelectThroughTheCatalog() throws Exception {
        exec(CREATE_EVENTS);
        exec("INSERT INTO db.events VALUES (1, 'a', 'd1'), (2, 'b', 'd1'), (3, 'c', 'd2')");
        assertThat(query("SELECT id, v, dt FROM db.events ORDER BY id"))
                .containsExactly("+I[1, a, d1]", "+I[2, b, d1]", "+I[3, c, d2]");
        assertThat(query("SELECT COUNT(*) FROM db.events WHERE dt = 'd1'"))
                .containsExactly("+I[2]");
        assertThat(query("SHOW PARTITIONS db.events"))
                .containsExactlyInAnyOrder("+I[dt=d1]", "+I[dt=d2]");

        assertThatThrownBy(() -> exec("ALTER TABLE db.events SET ('bucket' = '8')"))
                .hasStackTraceContaining(
                        "Cannot alter table db.events: option 'bucket' is fixed once the table has"
                                + " data (it is at snapshot 1): the table has '4', ALTER TABLE"
                                + " gives '8'.");
    }

    @Test
    void timeTravelForSystemTimeAsOf() throws Exception {
        exec(CREATE_EVENTS);
        exec("INSERT INTO db.events VALUES (1, 'a', 'd1')");
        Thread.sleep(50);
        Instant between = Instant.now();
        Thread.sleep(50);
        exec("INSERT INTO db.events VALUES (2, 'b', 'd1')");

        String asOf =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
                        .withZone(ZoneOffset.UTC)
                        .format(between);
        assertThat(
                        query(
                                "SELECT id FROM db.events FOR SYSTEM_TIME AS OF TIMESTAMP '"
                                        + asOf
                                        + "' ORDER BY id"))
                .containsExactly("+I[1]");
        assertThat(query("SELECT id FROM db.events ORDER BY id")).containsExactly("+I[1]", "+I[2]");
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT id FROM db.events FOR SYSTEM_TIME AS OF"
                                                + " TIMESTAMP '2000-01-01 00:00:00'"))
                .hasStackTraceContaining("no snapshot at or before");
    }

    // ---- batch reads on several decode threads ----

    /** Ids of the rows the decode-thread tests write: 1 to 40,000, some twice. */
    private static final int IDS = 40_000;

    /** Hint of a read on {@code threads} decode threads. */
    private static String threads(int threads) {
        return " /*+ OPTIONS('read.decode-threads' = '" + threads + "') */";
    }

    /**
     * Table {@code db.many} of two partitions and 4 buckets, written by three commits (ids up to
     * 20,000, the rest, then 10,001 to 30,000 again): 24 files, each a split of its own in an
     * append table, 8 buckets of three sorted runs each in a primary-key table, whose third commit
     * updates a quarter of its keys.
     *
     * @return the table's rows as a batch query prints them, sorted
     */
    private List<String> createManyFiles(String kind) throws Exception {
        boolean primaryKey = kind.equals("primary-key");
        exec(
                "CREATE TABLE db.many (id BIGINT, v STRING, dt STRING"
                        + (primaryKey ? ", PRIMARY KEY (id, dt) NOT ENFORCED" : "")
                        + ") PARTITIONED BY (dt) WITH ('bucket' = '4', 'bucket-key' = 'id',"
                        + " 'source.split.target-size' = '1b')");
        exec(
                "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + IDS
                        + "', 'number-of-rows' = '"
                        + IDS
                        + "')");
        String insert =
                "INSERT INTO db.many SELECT id, '%s', IF(MOD(id, 2) = 0, 'even', 'odd') FROM seq"
                        + " WHERE %s";
        exec(String.format(insert, "c0", "id <= 20000"));
        exec(String.format(insert, "c1", "id > 20000"));
        exec(String.format(insert, "c2", "id BETWEEN 10001 AND 30000"));
        Map<String, String> rows = new TreeMap<>();
        List<String> all = new ArrayList<>();
        for (long id = 1; id <= IDS; id++) {
            String dt = id % 2 == 0 ? "even" : "odd";
            String first = String.format("+I[%d, %s, %s]", id, id <= 20000 ? "c0" : "c1", dt);
            boolean again = id >= 10001 && id <= 30000;
            String last = again ? String.format("+I[%d, c2, %s]", id, dt) : first;
            rows.put(id + dt, last);
            all.add(first);
            if (again) {
                all.add(last);
            }
        }
        List<String> expected = primaryKey ? new ArrayList<>(rows.values()) : all;
        Collections.sort(expected);
        return expected;
    }

    private List<String> sorted(List<String> rows) {
        List<String> sorted = new ArrayList<>(rows);
        Collections.sort(sorted);
        return sorted;
    }

    @ParameterizedTest(name = "{0} table")
    @ValueSource(strings = {"append", "primary-key"})
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a lost split would hold the read for ever
    void aBatchReadOnOneOrThreeDecodeThreadsReturnsTheSameRows(String kind) throws Exception {
        List<String> expected = createManyFiles(kind);
        for (String parallelism : List.of("1", "2")) {
            sql.set("parallelism.default", parallelism);
            for (int threads : new int[] {1, 3}) {
                assertThat(sorted(query("SELECT id, v, dt FROM db.many" + threads(threads))))
                        .as("rows read at parallelism %s on %d threads", parallelism, threads)
                        .isEqualTo(expected);
                List<String> limited =
                        query("SELECT id, v, dt FROM db.many" + threads(threads) + " LIMIT 25");
                assertThat(limited)
                        .as("LIMIT 25 at parallelism %s on %d threads", parallelism, threads)
                        .hasSize(25)
                        .doesNotHaveDuplicates()
                        .allMatch(row -> Collections.binarySearch(expected, row) >= 0);
            }
        }
        // The former key of the option is still read; a bad value names the key it was given as.
        assertThat(
                        sorted(
                                query(
                                        "SELECT id, v, dt FROM db.many /*+ OPTIONS("
                                                + "'streaming-read.decode-threads' = '3') */")))
                .isEqualTo(expected);
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT id FROM db.many /*+ OPTIONS("
                                                + "'streaming-read.decode-threads' = '17') */"))
                .hasStackTraceContaining(
                        "Invalid value '17' for option 'streaming-read.decode-threads' of table"
                                + " lake.db.many: must be 1 to 16");
        assertThatThrownBy(() -> query("SELECT id FROM db.many" + threads(0)))
                .hasStackTraceContaining(
                        "Invalid value '0' for option 'read.decode-threads' of table lake.db.many:"
                                + " must be 1 to 16");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aBatchReadOnThreeDecodeThreadsThatFailsOverReturnsEveryRowOnce() throws Exception {
        List<String> expected = createManyFiles("append");
        sql.set("restart-strategy.type", "fixed-delay");
        sql.set("restart-strategy.fixed-delay.attempts", "3");
        sql.set("restart-strategy.fixed-delay.delay", "100ms");
        sql.function("fail_at", FailAt.class);
        // The failure strikes in the middle of the read, in whichever subtask reads id 25,000.
        FailAt.reset(25_000);
        long sum = 0;
        for (String row : expected) {
            sum += Long.parseLong(row.substring(3, row.indexOf(',')));
        }
        assertThat(
                        query(
                                "SELECT COUNT(*), COUNT(DISTINCT CAST(id AS STRING) || v), SUM(id)"
                                        + " FROM (SELECT fail_at(id) AS id, v FROM db.many"
                                        + threads(3)
                                        + ")"))
                .containsExactly(
                        "+I[" + expected.size() + ", " + expected.size() + ", " + sum + "]");
        assertThat(FailAt.failed()).as("the injected failure struck").isTrue();
    }
}
