package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL INSERTs committing under {@code commit.lock = jdbc} against a real PostgreSQL: set on
 * the catalog for all its tables, or on one table. A lock row left by a committer that is gone (and
 * far from expiring) makes the next INSERT fail after {@code commit.lock.timeout}, which shows the
 * INSERT's commit takes the lock; once the row is gone, INSERTs commit again.
 */
class TarnCommitLockITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static EmbeddedPostgres server;

    @TempDir Path lake;

    @BeforeAll
    static void startPostgres() throws Exception {
        server = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        server.close();
    }

    private static String url() {
        return "jdbc:postgresql://localhost:" + server.getPort() + "/postgres";
    }

    private TableEnvironment env(String catalogOptions) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + lake.toUri()
                        + "'"
                        + catalogOptions
                        + ")");
        env.executeSql("USE CATALOG lake");
        env.executeSql("CREATE DATABASE IF NOT EXISTS db");
        return env;
    }

    @Test
    void catalogLockIsTakenByEveryInsert() throws Exception {
        TableEnvironment env =
                env(
                        ", 'commit.lock' = 'jdbc', 'commit.lock.jdbc.url' = '"
                                + url()
                                + "', 'commit.lock.jdbc.user' = 'postgres',"
                                + " 'commit.lock.timeout' = '2 s'");
        env.executeSql("CREATE TABLE db.t (id BIGINT, v STRING)");
        env.executeSql("INSERT INTO db.t VALUES (1, 'a'), (2, 'b')").await();

        assertHeldOnlyBy(env, "db.t", "INSERT INTO db.t VALUES (3, 'c')");
        assertThat(rows(env, "SELECT * FROM db.t ORDER BY id"))
                .containsExactly("+I[1, a]", "+I[2, b]", "+I[3, c]");
    }

    @Test
    void tableLockIsTakenByInsertsIntoThatTable() throws Exception {
        TableEnvironment env = env("");
        env.executeSql(
                "CREATE TABLE db.u (id BIGINT, v STRING) WITH ('commit.lock' = 'jdbc',"
                        + " 'commit.lock.jdbc.url' = '"
                        + url()
                        + "', 'commit.lock.jdbc.user' = 'postgres', 'commit.lock.timeout' = '2 s')");
        env.executeSql("INSERT INTO db.u VALUES (1, 'a')").await();

        assertHeldOnlyBy(env, "db.u", "INSERT INTO db.u VALUES (2, 'b')");
        assertThat(rows(env, "SELECT * FROM db.u ORDER BY id"))
                .containsExactly("+I[1, a]", "+I[2, b]");
    }

    /**
     * Nothing holds the table's lock after a commit; a row of a gone committer makes {@code insert}
     * fail naming the timeout; removed, {@code insert} commits.
     */
    private static void assertHeldOnlyBy(TableEnvironment env, String table, String insert)
            throws Exception {
        String location =
                ((TarnCatalog) env.getCatalog("lake").orElseThrow())
                        .loadTable(ObjectPath.fromString(table))
                        .location()
                        .toString();
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            try (PreparedStatement count =
                    c.prepareStatement(
                            "SELECT count(*) FROM tarn_commit_locks WHERE lock_key = ?")) {
                count.setString(1, location);
                try (ResultSet r = count.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getLong(1)).as("lock rows of %s after its commit", table).isZero();
                }
            }
            try (PreparedStatement hold =
                    c.prepareStatement(
                            "INSERT INTO tarn_commit_locks (lock_key, owner, expires_at)"
                                    + " VALUES (?, 'gone-committer', ?)")) {
                hold.setString(1, location);
                hold.setLong(2, System.currentTimeMillis() + 3_600_000);
                hold.executeUpdate();
            }
            assertThatThrownBy(() -> env.executeSql(insert).await())
                    .hasStackTraceContaining(
                            "Cannot commit to table lake.db."
                                    + table.substring(3)
                                    + ": the commit lock on "
                                    + location)
                    .hasStackTraceContaining(
                            "was not free within commit.lock.timeout = 2 s; it is held by"
                                    + " gone-committer until ");
            try (PreparedStatement release =
                    c.prepareStatement("DELETE FROM tarn_commit_locks WHERE lock_key = ?")) {
                release.setString(1, location);
                release.executeUpdate();
            }
        }
        env.executeSql(insert).await();
    }

    private static List<String> rows(TableEnvironment env, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
