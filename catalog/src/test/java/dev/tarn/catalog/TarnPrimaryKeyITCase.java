package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Primary-key tables through SQL in batch mode: upserts, DELETE, UPDATE, OVERWRITE, engines. */
class TarnPrimaryKeyITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String CREATE_USERS =
            "CREATE TABLE db.users (id BIGINT, name STRING, balance DECIMAL(12, 2), dt STRING,"
                    + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                    + " WITH ('bucket' = '4')";

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void createCatalog() {
        sql = LakeSql.open(lake);
    }

    private List<String> query(String statement) throws Exception {
        List<String> rows = sql.query(statement);
        rows.sort(null);
        return rows;
    }

    private void exec(String statement) throws Exception {
        sql.exec(statement);
    }

    @Test
    void upsertsDeletesUpdatesAndOverwrite() throws Exception {
        exec(CREATE_USERS);
        exec(
                "INSERT INTO db.users SELECT id, 'n' || CAST(id AS STRING),"
                        + " CAST(id - 3 AS DECIMAL(12, 2)), IF(MOD(id, 2) = 0, 'a', 'b')"
                        + " FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8)) AS t(id)");
        // Every key written again: the newest version wins.
        exec(
                "INSERT INTO db.users SELECT id, 'm' || CAST(id AS STRING),"
                        + " CAST(id - 3 AS DECIMAL(12, 2)), IF(MOD(id, 2) = 0, 'a', 'b')"
                        + " FROM (VALUES (1), (2), (3), (4)) AS t(id)");
        assertThat(query("SELECT COUNT(*) FROM db.users")).containsExactly("+I[8]");
        assertThat(query("SELECT name FROM db.users WHERE id <= 4"))
                .containsExactly("+I[m1]", "+I[m2]", "+I[m3]", "+I[m4]");

        exec("DELETE FROM db.users WHERE dt = 'a' AND balance < 0");
        assertThat(query("SELECT id FROM db.users WHERE dt = 'a'"))
                .containsExactly("+I[4]", "+I[6]", "+I[8]");

        exec("UPDATE db.users SET name = 'x' WHERE id = 7");
        assertThat(query("SELECT id, name, balance FROM db.users WHERE id = 7"))
                .containsExactly("+I[7, x, 4.00]");
        assertThat(query("SELECT COUNT(*) FROM db.users")).containsExactly("+I[7]");

        exec(
                "INSERT OVERWRITE db.users PARTITION (dt = 'b')"
                        + " VALUES (100, 'o', CAST(1 AS DECIMAL(12, 2)))");
        assertThat(query("SELECT id, dt FROM db.users"))
                .containsExactly("+I[100, b]", "+I[4, a]", "+I[6, a]", "+I[8, a]");
    }

    @Test
    void compactProcedureRewritesEveryBucketIntoOneRun() throws Exception {
        exec(CREATE_USERS);
        for (int round = 0; round < 3; round++) {
            exec(
                    "INSERT INTO db.users SELECT id, 'r"
                            + round
                            + "', CAST(id AS DECIMAL(12, 2)), 'a'"
                            + " FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8)) AS t(id)");
        }
        exec("DELETE FROM db.users WHERE id = 8");
        List<String> before = query("SELECT * FROM db.users");

        assertThat(query("CALL lake.sys.compact('db.users')"))
                .singleElement()
                .asString()
                .contains("Compacted")
                .contains("of table db.users into snapshot 5");
        assertThat(query("SELECT * FROM db.users")).isEqualTo(before).hasSize(7);
        assertThat(Files.readString(lake.resolve("db.db/users/snapshot/snapshot-5")))
                .contains("\"commitKind\" : \"COMPACT\"");
        assertThat(query("CALL lake.sys.compact('db.users')"))
                .singleElement()
                .asString()
                .contains("is compacted already");

        // An append table's small files merge into one, its rows as they were.
        exec("CREATE TABLE db.log (id BIGINT)");
        exec("INSERT INTO db.log VALUES (1), (2)");
        exec("INSERT INTO db.log VALUES (3)");
        exec("INSERT INTO db.log VALUES (4)");
        assertThat(query("CALL lake.sys.compact('db.log')"))
                .singleElement()
                .asString()
                .contains("Compacted 1 bucket of table db.log into snapshot 4");
        assertThat(query("SELECT * FROM db.log"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]", "+I[4]");
        try (var files = Files.list(lake.resolve("db.db/log/bucket-0"))) {
            assertThat(files.filter(f -> !f.getFileName().toString().startsWith("."))).hasSize(4);
        }
        assertThat(query("CALL lake.sys.compact('db.log')"))
                .singleElement()
                .asString()
                .contains("is compacted already");
        assertThatThrownBy(() -> query("CALL lake.sys.compact('db.missing')"))
                .hasMessage(
                        "The call method caused an error: Cannot compact: argument 'table' names"
                                + " no table: Table db.missing does not exist in catalog lake.");
    }

    @Test
    void valueFiltersApplyAfterTheMerge() throws Exception {
        exec(CREATE_USERS);
        exec("INSERT INTO db.users VALUES (1, 'old', 5, 'a')");
        exec("INSERT INTO db.users VALUES (1, 'new', 50, 'a')");
        assertThat(query("SELECT * FROM db.users WHERE balance < 10")).isEmpty();
        assertThat(query("SELECT name FROM db.users WHERE balance > 10"))
                .containsExactly("+I[new]");
        assertThat(query("SELECT name FROM db.users WHERE id = 1")).containsExactly("+I[new]");
    }

    @Test
    void mergeEnginesFromTableOptions() throws Exception {
        exec(
                "CREATE TABLE db.totals (k STRING, total BIGINT, tags STRING,"
                        + " PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'aggregation',"
                        + " 'fields.total.aggregate-function' = 'sum',"
                        + " 'fields.tags.aggregate-function' = 'listagg')");
        exec("INSERT INTO db.totals VALUES ('a', 1, 'x'), ('b', 10, 'y')");
        exec("INSERT INTO db.totals VALUES ('a', 2, 'z')");
        assertThat(query("SELECT * FROM db.totals"))
                .containsExactly("+I[a, 3, x,z]", "+I[b, 10, y]");

        exec(
                "CREATE TABLE db.profiles (k STRING, a STRING, b STRING,"
                        + " PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update')");
        exec("INSERT INTO db.profiles VALUES ('p', 'a1', CAST(NULL AS STRING))");
        exec("INSERT INTO db.profiles VALUES ('p', CAST(NULL AS STRING), 'b1')");
        assertThat(query("SELECT * FROM db.profiles")).containsExactly("+I[p, a1, b1]");

        exec(
                "CREATE TABLE db.firsts (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('merge-engine' = 'first-row')");
        exec("INSERT INTO db.firsts VALUES ('k', 'first')");
        exec("INSERT INTO db.firsts VALUES ('k', 'second')");
        assertThat(query("SELECT v FROM db.firsts")).containsExactly("+I[first]");
        assertThatThrownBy(() -> exec("DELETE FROM db.firsts WHERE k = 'k'"))
                .hasStackTraceContaining(
                        "Cannot DELETE rows of Tarn table lake.db.firsts: its merge engine 'first-row'");
    }

    @Test
    void badPrimaryKeyTablesAreRefused() throws Exception {
        assertThatThrownBy(
                        () ->
                                exec(
                                        "CREATE TABLE db.t (id BIGINT, dt STRING, PRIMARY KEY (id)"
                                                + " NOT ENFORCED) PARTITIONED BY (dt)"))
                .hasStackTraceContaining(
                        "Partition column dt of table db.t must be part of the primary key [id]");
        assertThatThrownBy(
                        () ->
                                exec(
                                        "CREATE TABLE db.t (id BIGINT, PRIMARY KEY (id) NOT"
                                                + " ENFORCED) WITH ('bucket' = '-1')"))
                .hasStackTraceContaining("dynamic bucketing is not supported yet");
        exec("CREATE TABLE db.t (id BIGINT, PRIMARY KEY (id) NOT ENFORCED)");
        assertThat(query("SHOW CREATE TABLE db.t").get(0)).contains("'bucket' = '4'");

        exec("CREATE TABLE db.log (id BIGINT, v STRING)");
        assertThatThrownBy(() -> exec("DELETE FROM db.log WHERE id = 1"))
                .hasStackTraceContaining(
                        "Cannot DELETE rows of Tarn table lake.db.log: it has no primary key");
    }

    @Test
    void updatesOfKeyColumnsAreRefused() throws Exception {
        exec(CREATE_USERS);
        exec("INSERT INTO db.users VALUES (1, 'a', 5, 'a')");
        assertThatThrownBy(() -> exec("UPDATE db.users SET id = 2 WHERE id = 1"))
                .hasStackTraceContaining(
                        "Cannot UPDATE primary-key column id of Tarn table lake.db.users: a key"
                                + " identifies its row; DELETE it and INSERT the new key");
        // The partition column is part of the key, too.
        assertThatThrownBy(() -> exec("UPDATE db.users SET dt = 'b' WHERE id = 1"))
                .hasStackTraceContaining(
                        "Cannot UPDATE primary-key column dt of Tarn table lake.db.users");
        assertThat(query("SELECT * FROM db.users")).containsExactly("+I[1, a, 5.00, a]");
    }
}
