package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column changes from SQL on tables with data written before and after: reads see every row through
 * the current schema, refused changes name the column, the types and the reason, and a streaming
 * read follows the table across a column add (with a default, which rows written before read as).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnSchemaEvolutionITCase {

    /** Slots for two following queries at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void createTable() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec(
                "CREATE TABLE lake.db.users (id BIGINT, name STRING, balance DECIMAL(10, 2),"
                        + " legacy_flag BOOLEAN, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        sql.exec(
                "INSERT INTO lake.db.users VALUES (1, 'ann', 1.50, true), (2, 'bob', 2.25, false)");
    }

    private List<String> query(String statement) throws Exception {
        List<String> rows = sql.query(statement);
        rows.sort(null);
        return rows;
    }

    @Test
    void theIssuesStatementsKeepEveryRowReadable() throws Exception {
        sql.exec(
                "ALTER TABLE lake.db.users ADD (email STRING COMMENT 'primary address', tier INT"
                        + " AFTER name)");
        sql.exec(
                "INSERT INTO lake.db.users VALUES (3, 'cid', 7, 3.00, CAST(NULL AS BOOLEAN), 'c@x')");
        sql.exec("ALTER TABLE lake.db.users RENAME name TO full_name");
        sql.exec("ALTER TABLE lake.db.users MODIFY (balance DECIMAL(18, 2), tier BIGINT)");
        sql.exec("ALTER TABLE lake.db.users DROP (legacy_flag)");
        sql.exec("ALTER TABLE lake.db.users MODIFY email STRING FIRST");
        sql.exec("INSERT INTO lake.db.users VALUES ('d@x', 4, 'dan', 9000000000, 4.75)");
        sql.exec("INSERT INTO lake.db.users VALUES ('b@x', 2, 'bob', 2, 2.50)");

        assertThat(query("SELECT * FROM lake.db.users"))
                .containsExactly(
                        "+I[b@x, 2, bob, 2, 2.50]",
                        "+I[c@x, 3, cid, 7, 3.00]",
                        "+I[d@x, 4, dan, 9000000000, 4.75]",
                        "+I[null, 1, ann, null, 1.50]");
        assertThat(query("SELECT full_name FROM lake.db.users WHERE tier > 5"))
                .containsExactly("+I[cid]", "+I[dan]");
        assertThat(query("SELECT id FROM lake.db.users WHERE email IS NULL"))
                .containsExactly("+I[1]");
        assertThat(query("DESCRIBE lake.db.users").get(0)).startsWith("+I[balance, DECIMAL(18, 2)");
        sql.exec("CALL lake.sys.compact(`table` => 'db.users')");
        assertThat(query("SELECT id, tier FROM lake.db.users"))
                .containsExactly("+I[1, null]", "+I[2, 2]", "+I[3, 7]", "+I[4, 9000000000]");
    }

    @Test
    void refusedChangesNameTheColumnTheTypesAndTheReason() throws Exception {
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.users MODIFY balance DECIMAL(8, 2)"))
                .hasStackTraceContaining(
                        "Cannot change column balance from DECIMAL(10, 2) to DECIMAL(8, 2) of"
                                + " table db.users: a decimal may only gain digits");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.users MODIFY name INT"))
                .hasStackTraceContaining(
                        "Cannot change column name from STRING to INT of table db.users: the"
                                + " types are incompatible");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.users RENAME id TO user_id"))
                .hasStackTraceContaining(
                        "Cannot rename column id of table db.users: it is a primary-key column");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.users ADD (x INT NOT NULL)"))
                .hasStackTraceContaining(
                        "Cannot add column x INT NOT NULL of table db.users: rows written before"
                                + " have no value for it");
        sql.exec("CREATE TABLE lake.db.ev (v INT, dt STRING) PARTITIONED BY (dt)");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.ev DROP (dt)"))
                .hasStackTraceContaining(
                        // Flink refuses this one itself, before the catalog sees it.
                        "The column `dt` is used as the partition keys");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.ev DROP (v)"))
                .hasStackTraceContaining(
                        "Table db.ev must have at least one column that is not a partition key");
        sql.exec("CREATE TABLE lake.db.single (v INT)");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.single DROP (v)"))
                .hasStackTraceContaining(
                        "Cannot drop column v of table db.single: it is the table's last column");
        assertThat(query("SELECT * FROM lake.db.users"))
                .containsExactly("+I[1, ann, 1.50, true]", "+I[2, bob, 2.25, false]");
    }

    @Test
    void addedColumnsReadAsTheirDefaultsInRowsWrittenBefore() throws Exception {
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.users SET"
                                                + " ('fields.balance.default-value' = 'abc')"))
                .hasStackTraceContaining(
                        "Option 'fields.balance.default-value' of table db.users: default value"
                                + " 'abc' of column balance is not a value of its type DECIMAL(10,"
                                + " 2)");
        sql.exec("ALTER TABLE lake.db.users SET ('fields.tier.default-value' = '1')");
        sql.exec("ALTER TABLE lake.db.users ADD (tier INT NOT NULL, note STRING)");
        sql.exec("ALTER TABLE lake.db.users SET ('fields.note.default-value' = 'old')");
        sql.exec(
                "INSERT INTO lake.db.users VALUES (3, 'cid', 3.00, CAST(NULL AS BOOLEAN), 5,"
                        + " CAST(NULL AS STRING))");
        sql.exec("ALTER TABLE lake.db.users RENAME tier TO level");
        assertThat(query("SELECT id, level, note FROM lake.db.users"))
                .containsExactly("+I[1, 1, old]", "+I[2, 1, old]", "+I[3, 5, null]");
        assertThat(query("SELECT id FROM lake.db.users WHERE level = 1"))
                .containsExactly("+I[1]", "+I[2]");
        assertThat(query("SHOW CREATE TABLE lake.db.users").get(0))
                .contains("'fields.level.default-value' = '1'");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.users RESET ('fields.level.default-value')"))
                .hasStackTraceContaining(
                        "Cannot alter table db.users: column level is NOT NULL and has the default"
                                + " '1'");
    }

    @Test
    void computedColumnsAreDeclaredAndChangedWithoutTouchingAFile() throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.orders (id INT, price DECIMAL(10, 2), total AS price * qty"
                        + " COMMENT 'price times quantity', qty INT, ms BIGINT,"
                        + " ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '1'"
                        + " SECOND)");
        sql.exec("INSERT INTO lake.db.orders VALUES (1, 2.50, 4, 1000)");
        assertThat(query("SELECT id, total, ts FROM lake.db.orders"))
                .containsExactly("+I[1, 10.00, 1970-01-01T00:00:01Z]");
        List<String> described = sql.query("DESCRIBE lake.db.orders");
        assertThat(described.get(2)).startsWith("+I[total, DECIMAL(");
        assertThat(described.get(2)).contains("AS `price` * `qty`", "price times quantity");
        assertThat(described.get(3)).startsWith("+I[qty, INT, true, null, null, null");
        assertThat(query("SHOW CREATE TABLE lake.db.orders").get(0))
                .contains("`total` AS `price` * `qty` COMMENT 'price times quantity',\n  `qty` INT")
                .contains("WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND");

        sql.exec("ALTER TABLE lake.db.orders ADD (next_id AS id + 1 FIRST)");
        sql.exec("ALTER TABLE lake.db.orders MODIFY total AS price * qty * 2");
        sql.exec("ALTER TABLE lake.db.orders ADD (note STRING)");
        sql.exec(
                "INSERT INTO lake.db.orders (id, price, qty, ms, note) VALUES (2, 1.00, 3, 2000, 'x')");
        assertThat(query("SELECT * FROM lake.db.orders"))
                .containsExactly(
                        "+I[2, 1, 2.50, 20.00, 4, 1000, 1970-01-01T00:00:01Z, null]",
                        "+I[3, 2, 1.00, 6.00, 3, 2000, 1970-01-01T00:00:02Z, x]");
        sql.exec("ALTER TABLE lake.db.orders DROP next_id");
        assertThat(query("SELECT * FROM lake.db.orders WHERE id = 1"))
                .containsExactly("+I[1, 2.50, 20.00, 4, 1000, 1970-01-01T00:00:01Z, null]");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "CREATE TABLE lake.db.m (id INT, part STRING METADATA"
                                                + " FROM 'partition')"))
                .hasStackTraceContaining(
                        "is not supported; a Tarn table has physical and computed columns only,"
                                + " without metadata definitions");
    }

    @Test
    void aRowColumnGainsANestedField() throws Exception {
        sql.exec("CREATE TABLE lake.db.r (id INT, address ROW<zip INT, city STRING>)");
        sql.exec("INSERT INTO lake.db.r VALUES (1, ROW(10, 'a'))");
        sql.exec("ALTER TABLE lake.db.r MODIFY address ROW<zip BIGINT, city STRING, lvl INT>");
        sql.exec("INSERT INTO lake.db.r VALUES (2, ROW(20, 'b', 3))");
        assertThat(query("SELECT id, address.zip, address.city, address.lvl FROM lake.db.r"))
                .containsExactly("+I[1, 10, a, null]", "+I[2, 20, b, 3]");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.r MODIFY address ROW<zip BIGINT,"
                                                + " town STRING, lvl INT>"))
                .hasStackTraceContaining("nested field city would become town");
    }

    @Test
    void aStreamingReadFollowsTheTableAcrossAColumnAdd() throws Exception {
        sql.exec("CREATE TABLE lake.db.s (id INT, name STRING)");
        sql.exec("INSERT INTO lake.db.s VALUES (1, 'a')");
        try (Follower before =
                new Follower(
                        LakeSql.streaming(lake)
                                .executeSql(
                                        "SELECT * FROM lake.db.s /*+ OPTIONS('scan.mode' ="
                                                + " 'from-snapshot-full', 'scan.snapshot-id' ="
                                                + " '1') */"))) {
            assertThat(before.take(1)).containsExactly("+I[1, a]");
            sql.exec("ALTER TABLE lake.db.s SET ('fields.score.default-value' = '0.5')");
            sql.exec("ALTER TABLE lake.db.s ADD (score DOUBLE AFTER id)");
            sql.exec("INSERT INTO lake.db.s VALUES (2, 2.5, 'b')");
            // A read planned before the change keeps its columns.
            assertThat(before.take(1)).containsExactly("+I[2, b]");
            try (Follower after =
                    new Follower(
                            LakeSql.streaming(lake)
                                    .executeSql(
                                            "SELECT * FROM lake.db.s /*+ OPTIONS('scan.mode' ="
                                                    + " 'from-snapshot-full',"
                                                    + " 'scan.snapshot-id' = '1') */"))) {
                assertThat(after.take(2))
                        .containsExactlyInAnyOrder("+I[1, 0.5, a]", "+I[2, 2.5, b]");
                sql.exec("INSERT INTO lake.db.s VALUES (3, 3.5, 'c')");
                assertThat(after.take(1)).containsExactly("+I[3, 3.5, c]");
                assertThat(before.take(1)).containsExactly("+I[3, c]");
            }
        }
    }

    @Test
    void aRunningWriterKeepsItsSchemaAndStaysReadable() throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.w (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        TableEnvironment env =
                LakeSql.streaming(
                        lake,
                        "parallelism.default",
                        "1",
                        "execution.checkpointing.interval",
                        "100ms");
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '600', 'number-of-rows' = '600',"
                        + " 'rows-per-second' = '200')");
        TableResult job =
                env.executeSql(
                        "INSERT INTO lake.db.w SELECT id, 'n' || CAST(id AS STRING) FROM gen");
        long deadline = System.currentTimeMillis() + 60_000;
        while (query("SELECT COUNT(*) FROM lake.db.w").equals(List.of("+I[0]"))) {
            assertThat(System.currentTimeMillis()).as("first commit").isLessThan(deadline);
            Thread.sleep(100);
        }
        sql.exec("ALTER TABLE lake.db.w ADD (extra INT)");
        job.await();
        assertThat(query("SELECT COUNT(*), COUNT(DISTINCT id), COUNT(extra) FROM lake.db.w"))
                .containsExactly("+I[600, 600, 0]");
        // Every file the job committed, after the ALTER too, records the schema it started with.
        assertThat(query("SELECT DISTINCT schema_id FROM lake.db.`w$files`"))
                .containsExactly("+I[0]");
        sql.exec("INSERT INTO lake.db.w VALUES (1, 'one', 11), (601, 'new', 12)");
        assertThat(query("SELECT * FROM lake.db.w WHERE id IN (1, 2, 600, 601)"))
                .containsExactly(
                        "+I[1, one, 11]",
                        "+I[2, n2, null]",
                        "+I[600, n600, null]",
                        "+I[601, new, 12]");
    }
}
