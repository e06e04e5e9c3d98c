package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Flink SQL against a Tarn catalog in batch mode, on one shared MiniCluster. */
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
}
