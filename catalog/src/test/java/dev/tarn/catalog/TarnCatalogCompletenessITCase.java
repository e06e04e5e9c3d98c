package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataBase;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataLong;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog operations a Flink user expects, from SQL: renaming across databases, comments,
 * partitions (SHOW and DROP), statistics for the planner, CREATE TABLE AS SELECT and LIKE, and SHOW
 * CREATE TABLE output that recreates the table.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnCatalogCompletenessITCase {

    /** Slots for a following query at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    @TempDir Path lake;
    private LakeSql sql;
    private TarnCatalog catalog;
    private Follower follower;

    @BeforeEach
    void createEvents() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec("CREATE DATABASE db2");
        sql.exec(
                "CREATE TABLE lake.db.events (id INT, name STRING, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2')");
        sql.exec(
                "INSERT INTO lake.db.events VALUES (1, 'a', '2026-01-01'), (2, 'b', '2026-01-02'),"
                        + " (3, 'c', '2026-01-02'), (4, 'd', '2026-01-03')");
        catalog =
                new TarnCatalog("lake", new org.apache.flink.core.fs.Path(lake.toUri()), "default");
        catalog.open();
    }

    @AfterEach
    void cancel() throws Exception {
        if (follower != null) {
            follower.close();
        }
    }

    private List<String> sorted(String query) throws Exception {
        List<String> rows = sql.query(query);
        rows.sort(null);
        return rows;
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    @Test
    void renameMovesTheTableAndItsFilesToAnotherDatabase() throws Exception {
        assertThat(sql.query("CALL lake.sys.rename_table('db.events', 'db2.events_v1')"))
                .containsExactly("+I[Renamed table db.events to db2.events_v1 in catalog lake]");
        assertThat(sorted("SELECT id FROM lake.db2.events_v1"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]", "+I[4]");
        assertThat(sql.query("SHOW TABLES FROM lake.db")).isEmpty();
        assertThat(Files.exists(lake.resolve("db.db/events"))).isFalse();
        sql.exec("INSERT INTO lake.db2.events_v1 VALUES (5, 'e', '2026-01-04')");
        assertThat(sql.query("SELECT COUNT(*) FROM lake.db2.events_v1")).containsExactly("+I[5]");

        // The catalog name may be given; ALTER TABLE renames within the database.
        sql.exec("CALL lake.sys.rename_table('db2.events_v1', 'lake.db.events')");
        sql.exec("ALTER TABLE lake.db.events RENAME TO events_v2");
        assertThat(sql.query("SHOW TABLES FROM lake.db")).containsExactly("+I[events_v2]");
    }

    @Test
    void alterTableRenameToAnotherDatabaseStaysInItsDatabase() throws Exception {
        // Flink passes a catalog only the new table name: the database named here is lost.
        sql.exec("ALTER TABLE lake.db.events RENAME TO lake.db2.events_v1");
        assertThat(sql.query("SHOW TABLES FROM lake.db")).containsExactly("+I[events_v1]");
        assertThat(sql.query("SHOW TABLES FROM lake.db2")).isEmpty();
    }

    @Test
    void renameRefusesAnotherCatalogAnExistingTargetAndAMissingSource() throws Exception {
        sql.exec("CREATE TABLE lake.db2.taken (id INT)");
        assertThatThrownBy(() -> sql.exec("CALL lake.sys.rename_table('db.events', 'other.db2.x')"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessageContaining(
                                                "Invalid argument 'new_name' of sys.rename_table:"
                                                        + " 'other.db2.x'; catalog lake cannot"
                                                        + " move a table into catalog other"));
        // Flink's call adds "The call method caused an error: " and a period to the message.
        assertThatThrownBy(() -> sql.exec("CALL lake.sys.rename_table('db.events', 'db2.taken')"))
                .hasMessage(
                        "The call method caused an error: Cannot rename table db.events to"
                                + " db2.taken in catalog lake: table db2.taken already exists.");
        assertThatThrownBy(() -> sql.exec("CALL lake.sys.rename_table('db.nope', 'db2.x')"))
                .hasMessage(
                        "The call method caused an error: Cannot rename table db.nope to db2.x in"
                                + " catalog lake: table db.nope does not exist.");
        assertThatThrownBy(() -> sql.exec("CALL lake.sys.rename_table('db.events', 'db9.x')"))
                .hasMessage(
                        "The call method caused an error: Cannot rename table db.events to db9.x"
                                + " in catalog lake: database db9 does not exist.");
        assertThat(sql.query("SELECT COUNT(*) FROM lake.db.events")).containsExactly("+I[4]");
    }

    @Test
    void aReaderFollowingTheOldNameFailsNamingTheRename() throws Exception {
        follower =
                new Follower(
                        LakeSql.streaming(lake, "restart-strategy.type", "none")
                                .executeSql("SELECT id FROM lake.db.events"));
        assertThat(follower.take(4)).hasSize(4);
        sql.exec("CALL lake.sys.rename_table('db.events', 'db2.events_v1')");
        sql.exec("INSERT INTO lake.db2.events_v1 VALUES (5, 'e', '2026-01-04')");
        follower.assertNothingFor(1000);
        assertThat(follower.awaitFailure())
                .contains(
                        "Table lake.db.events is gone from ",
                        "while this streaming read followed it: it was dropped or renamed (its"
                                + " schema file schema-0 is missing). Restart the read on the"
                                + " table's current name");
    }

    @Test
    void commentsSurviveCreateAndAlterAndComeBackInDescribeAndShowCreateTable() throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.users (id BIGINT COMMENT 'the key', name STRING)"
                        + " COMMENT 'people we know'");
        sql.exec("ALTER TABLE lake.db.users ADD email STRING COMMENT 'primary address'");
        sql.exec("ALTER TABLE lake.db.users MODIFY name STRING COMMENT 'full name'");
        sql.exec("ALTER TABLE lake.db.users MODIFY id BIGINT COMMENT 'the user id'");
        assertThat(sql.query("DESCRIBE lake.db.users"))
                .containsExactly(
                        "+I[id, BIGINT, true, null, null, null, the user id]",
                        "+I[name, STRING, true, null, null, null, full name]",
                        "+I[email, STRING, true, null, null, null, primary address]");
        String ddl = sql.query("SHOW CREATE TABLE lake.db.users").get(0);
        assertThat(ddl)
                .contains("`id` BIGINT COMMENT 'the user id'")
                .contains("`name` VARCHAR(2147483647) COMMENT 'full name'")
                .contains("`email` VARCHAR(2147483647) COMMENT 'primary address'")
                .contains("COMMENT 'people we know'");
    }

    @Test
    void partitionsAreShownAndDroppedAsOneOverwriteSnapshotEach() throws Exception {
        assertThat(sorted("SHOW PARTITIONS lake.db.events"))
                .containsExactly("+I[dt=2026-01-01]", "+I[dt=2026-01-02]", "+I[dt=2026-01-03]");
        assertThat(sql.query("SHOW PARTITIONS lake.db.events PARTITION (dt = '2026-01-02')"))
                .containsExactly("+I[dt=2026-01-02]");

        sql.exec("ALTER TABLE lake.db.events DROP PARTITION (dt = '2026-01-01')");
        assertThat(sorted("SELECT id FROM lake.db.events"))
                .containsExactly("+I[2]", "+I[3]", "+I[4]");
        sql.exec("ALTER TABLE lake.db.events DROP IF EXISTS PARTITION (dt = '2026-01-01')");
        sql.exec(
                "ALTER TABLE lake.db.events DROP PARTITION (dt = '2026-01-02'),"
                        + " PARTITION (dt = '2026-01-03')");
        assertThat(sql.query("SELECT id FROM lake.db.events")).isEmpty();
        assertThat(sql.query("SHOW PARTITIONS lake.db.events")).isEmpty();
        // Flink hands the catalog one partition at a time: each drop is a snapshot of its own.
        assertThat(sql.query("SELECT snapshot_id, commit_kind FROM lake.db.`events$snapshots`"))
                .containsExactly(
                        "+I[1, APPEND]",
                        "+I[2, OVERWRITE]",
                        "+I[3, OVERWRITE]",
                        "+I[4, OVERWRITE]");
        // Time travel still sees the dropped rows.
        assertThat(
                        sql.query(
                                "SELECT COUNT(*) FROM lake.db.events"
                                        + " /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .containsExactly("+I[4]");
    }

    @Test
    void partitionDdlNamesTheColumnTheTableAndThePartition() throws Exception {
        sql.exec("CREATE TABLE lake.db.plain (id INT)");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.events DROP PARTITION (hh = '1')"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessage(
                                                "PartitionSpec CatalogPartitionSpec{{hh=1}} does"
                                                        + " not match partition keys [dt] of table"
                                                        + " db.events in catalog lake."));
        assertThatThrownBy(
                        () -> sql.exec("ALTER TABLE lake.db.events DROP PARTITION (dt = '2030')"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessage(
                                                "Partition CatalogPartitionSpec{{dt=2030}} of"
                                                        + " table db.events in catalog lake does"
                                                        + " not exist."));
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.plain DROP PARTITION (dt = 'x')"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessage(
                                                "Table db.plain in catalog lake is not"
                                                        + " partitioned."));
        assertThatThrownBy(() -> sql.query("SHOW PARTITIONS lake.db.plain"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessage(
                                                "Table db.plain in catalog lake is not"
                                                        + " partitioned."));
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.events ADD PARTITION (dt = '2030')"))
                .satisfies(
                        e ->
                                assertThat(root(e))
                                        .hasMessageContaining(
                                                "Cannot add partition {dt=2030} of table db.events"
                                                        + " in catalog lake: a Tarn table's"
                                                        + " partitions follow its data"));
    }

    @Test
    void aStreamingReadSeesADroppedPartitionsRowsAsDeletions() throws Exception {
        follower =
                new Follower(
                        LakeSql.streaming(lake)
                                .executeSql(
                                        "SELECT id, dt FROM lake.db.events /*+ OPTIONS("
                                                + "'scan.mode' = 'latest',"
                                                + " 'streaming-read-overwrite' = 'true') */"));
        follower.awaitRunning();
        sql.exec("ALTER TABLE lake.db.events DROP PARTITION (dt = '2026-01-02')");
        assertThat(follower.take(2))
                .containsExactlyInAnyOrder("-D[2, 2026-01-02]", "-D[3, 2026-01-02]");
        follower.assertNothingMore();
    }

    @Test
    void statisticsReachThePlanner() throws Exception {
        // From the catalog: the rows of the latest snapshot.
        assertThat(sourceRowCount(sql.query("EXPLAIN ESTIMATED_COST SELECT * FROM lake.db.events")))
                .isEqualTo("4.0");
        // From the source, where the table's catalog has none: the rows its filters leave.
        sql.exec(
                "CREATE TEMPORARY TABLE default_catalog.default_database.ext (id INT, name STRING,"
                        + " dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'tarn', 'path' = '"
                        + lake.resolve("db.db/events").toUri()
                        + "')");
        List<String> filtered =
                sql.query(
                        "EXPLAIN ESTIMATED_COST SELECT * FROM default_catalog.default_database.ext"
                                + " WHERE dt = '2026-01-02'");
        assertThat(sourceRowCount(filtered)).isEqualTo("2.0");
    }

    @Test
    void columnStatisticsFollowFieldIdsAcrossSchemaChanges() throws Exception {
        sql.exec("ALTER TABLE lake.db.events ADD score BIGINT FIRST");
        sql.exec("ALTER TABLE lake.db.events RENAME id TO event_id");
        sql.exec("INSERT INTO lake.db.events VALUES (70, 9, 'e', '2026-01-04')");
        Map<String, CatalogColumnStatisticsDataBase> columns =
                catalog.getTableColumnStatistics(new ObjectPath("db", "events"))
                        .getColumnStatisticsData();
        CatalogColumnStatisticsDataLong score =
                (CatalogColumnStatisticsDataLong) columns.get("score");
        // The four rows written before the column was added read as null.
        assertThat(score.getNullCount()).isEqualTo(4);
        assertThat(score.getMin()).isEqualTo(70);
        assertThat(score.getMax()).isEqualTo(70);
        CatalogColumnStatisticsDataLong id =
                (CatalogColumnStatisticsDataLong) columns.get("event_id");
        assertThat(id.getMin()).isEqualTo(1);
        assertThat(id.getMax()).isEqualTo(9);
        assertThat(id.getNullCount()).isZero();
        assertThat(catalog.getTableStatistics(new ObjectPath("db", "events")).getRowCount())
                .isEqualTo(5);
    }

    /** The row count the optimized plan gives its table source scan. */
    private static String sourceRowCount(List<String> explain) {
        String plan = String.join("\n", explain);
        int optimized = plan.indexOf("== Optimized Physical Plan ==");
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("TableSourceScan\\(.*?\\): rowcount = ([0-9.E]+)")
                        .matcher(plan.substring(optimized));
        assertThat(m.find()).as("a source scan's row count in %s", plan).isTrue();
        return m.group(1);
    }

    @Test
    void createTableAsSelectAndLike() throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.daily WITH ('bucket' = '2') AS SELECT dt, COUNT(*) AS n"
                        + " FROM lake.db.events GROUP BY dt");
        assertThat(sorted("SELECT * FROM lake.db.daily"))
                .containsExactly("+I[2026-01-01, 1]", "+I[2026-01-02, 2]", "+I[2026-01-03, 1]");
        assertThat(options("daily")).containsEntry("bucket", "2");

        sql.exec(
                "CREATE TABLE lake.db.daily_pk (PRIMARY KEY (dt) NOT ENFORCED)"
                        + " WITH ('bucket' = '2') AS SELECT COALESCE(dt, '') AS dt,"
                        + " COUNT(*) AS n FROM lake.db.events GROUP BY COALESCE(dt, '')");
        assertThat(table("daily_pk").getUnresolvedSchema().getPrimaryKey().get().getColumnNames())
                .containsExactly("dt");
        sql.exec("INSERT INTO lake.db.daily_pk VALUES ('2026-01-02', 7)");
        assertThat(sorted("SELECT * FROM lake.db.daily_pk"))
                .containsExactly("+I[2026-01-01, 1]", "+I[2026-01-02, 7]", "+I[2026-01-03, 1]");

        sql.exec("CREATE TABLE lake.db.events_like LIKE lake.db.events");
        assertThat(table("events_like").getPartitionKeys()).containsExactly("dt");
        assertThat(options("events_like")).containsEntry("bucket", "2");
        assertThat(table("events_like").getOptions().get("path")).endsWith("db.db/events_like");
        assertThat(lake.resolve("db.db/events_like/schema/schema-0")).exists();
        assertThat(sql.query("SELECT * FROM lake.db.events_like")).isEmpty();

        sql.exec(
                "CREATE TABLE lake.db.events_4 (extra INT) WITH ('bucket' = '4')"
                        + " LIKE lake.db.events (OVERWRITING OPTIONS)");
        assertThat(options("events_4")).containsEntry("bucket", "4");
        assertThat(table("events_4").getUnresolvedSchema().getColumns()).hasSize(4);
        sql.exec("CREATE TABLE lake.db.events_plain LIKE lake.db.events (EXCLUDING OPTIONS)");
        assertThat(options("events_plain")).isEmpty();
        assertThat(table("events_plain").getPartitionKeys()).containsExactly("dt");
    }

    @Test
    void showCreateTableRecreatesTheTable() throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.users (id BIGINT NOT NULL COMMENT 'the key',"
                        + " name STRING COMMENT 'full name', balance DECIMAL(10, 2),"
                        + " ts TIMESTAMP(3), dt STRING NOT NULL,"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) COMMENT 'people'"
                        + " PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2', 'merge-engine' = 'partial-update',"
                        + " 'changelog-producer' = 'input')");
        sql.exec(
                "INSERT INTO lake.db.users VALUES (1, 'ann', 1.50,"
                        + " TIMESTAMP '2026-01-01 00:00:00', '2026-01-01')");
        String ddl = sql.query("SHOW CREATE TABLE lake.db.users").get(0);
        ddl = ddl.substring(3, ddl.length() - 1); // +I[...]
        sql.exec(ddl.replace("`lake`.`db`.`users`", "`lake`.`db2`.`users_copy`"));

        CatalogTable original = table("users");
        CatalogTable copy = (CatalogTable) catalog.getTable(new ObjectPath("db2", "users_copy"));
        assertThat(copy.getUnresolvedSchema().toString())
                .isEqualTo(original.getUnresolvedSchema().toString());
        assertThat(copy.getPartitionKeys()).isEqualTo(original.getPartitionKeys());
        assertThat(copy.getComment()).isEqualTo("people");
        assertThat(withoutPath(copy)).isEqualTo(withoutPath(original));
        assertThat(lake.resolve("db2.db/users_copy/schema/schema-0")).exists();
        assertThat(sql.query("SELECT * FROM lake.db2.users_copy")).isEmpty();
    }

    /**
     * The printed DDL, run verbatim in a session whose catalog {@code lake} is another warehouse,
     * creates the same table there (its {@code path} is ignored), which then lives and takes rows
     * there.
     */
    @Test
    void showCreateTableRunsAsPrintedInAnotherWarehouse(@TempDir Path otherLake) throws Exception {
        sql.exec(
                "CREATE TABLE lake.db.users (id BIGINT NOT NULL COMMENT 'the key',"
                        + " name STRING, ts TIMESTAMP(3), dt STRING NOT NULL,"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) COMMENT 'people'"
                        + " PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2', 'merge-engine' = 'partial-update')");
        String ddl = sql.query("SHOW CREATE TABLE lake.db.users").get(0);
        ddl = ddl.substring(3, ddl.length() - 1); // +I[...]

        LakeSql other = LakeSql.open(otherLake);
        other.exec(ddl);
        // The printed DDL names the table's location; the other catalog places it by name.
        assertThat(ddl).contains("'path' = '" + table("users").getOptions().get("path") + "'");

        TarnCatalog otherCatalog =
                new TarnCatalog(
                        "lake", new org.apache.flink.core.fs.Path(otherLake.toUri()), "default");
        otherCatalog.open();
        CatalogTable original = table("users");
        CatalogTable copy = (CatalogTable) otherCatalog.getTable(new ObjectPath("db", "users"));
        assertThat(copy.getUnresolvedSchema().toString())
                .isEqualTo(original.getUnresolvedSchema().toString());
        assertThat(copy.getPartitionKeys()).containsExactly("dt");
        assertThat(copy.getComment()).isEqualTo("people");
        assertThat(withoutPath(copy))
                .isEqualTo(withoutPath(original))
                .isEqualTo(Map.of("bucket", "2", "merge-engine", "partial-update"));
        assertThat(copy.getOptions().get("path"))
                .endsWith("/db.db/users")
                .doesNotContain(lake.toUri().getPath());
        other.exec(
                "INSERT INTO lake.db.users VALUES (1, 'ann', TIMESTAMP '2026-01-01 00:00:00',"
                        + " '2026-01-01')");
        assertThat(other.query("SELECT id, name FROM lake.db.users")).containsExactly("+I[1, ann]");
        assertThat(otherLake.resolve("db.db/users/schema/schema-0")).exists();
        assertThat(sql.query("SELECT * FROM lake.db.users")).isEmpty();
    }

    private CatalogTable table(String name) throws Exception {
        return (CatalogTable) catalog.getTable(new ObjectPath("db", name));
    }

    private Map<String, String> options(String name) throws Exception {
        return withoutPath(table(name));
    }

    private static Map<String, String> withoutPath(CatalogTable table) {
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.remove("path");
        return options;
    }
}
