package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot lifecycle from SQL: {@code CALL sys.expire_snapshots}, {@code create_tag}, {@code
 * delete_tag} and {@code rollback_to} with named and positional arguments, their refusals of bad
 * arguments, reads of a tag and of an expired snapshot, and a streaming job whose committer expires
 * snapshots as it goes.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TarnLifecycleITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    @TempDir Path warehouse;

    private LakeSql sql;

    @BeforeEach
    void setUp() {
        sql = LakeSql.open(warehouse);
    }

    private List<String> call(String statement) throws Exception {
        return sql.query(statement);
    }

    /** The statement fails, and one exception of the chain has exactly {@code message}. */
    private void assertRefused(String statement, String message) {
        Throwable thrown =
                org.assertj.core.api.Assertions.catchThrowable(() -> sql.query(statement));
        List<String> messages = new java.util.ArrayList<>();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            messages.add(t.getClass().getSimpleName() + ": " + t.getMessage());
        }
        assertThat(messages)
                .as("the failure of %s", statement)
                .contains("ValidationException: " + message);
    }

    private long snapshotFiles(String table) throws Exception {
        try (Stream<Path> files = Files.list(warehouse.resolve("db.db/" + table + "/snapshot"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("snapshot-")).count();
        }
    }

    @Test
    void proceduresExpireTagAndRollBackFromSql() throws Exception {
        sql.exec("CREATE TABLE db.t (id INT, name STRING)");
        for (int i = 0; i < 5; i++) {
            sql.insertIds("db.t", i * 10 + 1, i * 10 + 10); // snapshot i + 1
        }
        assertThat(
                        call(
                                "CALL lake.sys.create_tag(`table` => 'db.t', tag => 'eod', snapshot_id => 2)"))
                .containsExactly("+I[Created tag 'eod' of table db.t on snapshot 2]");
        assertThat(call("CALL lake.sys.create_tag('db.t', 'last')"))
                .containsExactly("+I[Created tag 'last' of table db.t on snapshot 5]");
        assertThat(
                        sql.query(
                                "SELECT tag_name, snapshot_id, schema_id, record_count,"
                                        + " time_retained, create_time IS NOT NULL,"
                                        + " commit_time <= create_time FROM db.`t$tags`"))
                .containsExactly(
                        "+I[eod, 2, 0, 20, null, true, true]",
                        "+I[last, 5, 0, 50, null, true, true]");
        assertRefused(
                "CALL lake.sys.create_tag(`table` => 'db.t', tag => 'eod')",
                "Invalid argument 'tag' of sys.create_tag: Tag 'eod' of table db.t already exists"
                        + " (on snapshot 2); delete it first or choose another name");
        assertRefused(
                "CALL lake.sys.create_tag(`table` => 'db.t', tag => 'x', snapshot_id => 99)",
                "Invalid argument 'snapshot_id' of sys.create_tag: Cannot create tag 'x' of table"
                        + " db.t: snapshot 99 does not exist; the table has snapshots 1 to 5");
        assertRefused(
                "CALL lake.sys.expire_snapshots(`table` => 'db.t', retain_min => 0)",
                "Invalid argument 'retain_min' of sys.expire_snapshots: 0; it must be at least 1");
        assertRefused(
                "CALL lake.sys.expire_snapshots(`table` => 'db.t', older_than => 'yesterday')",
                "Invalid argument 'older_than' of sys.expire_snapshots: 'yesterday'; expected"
                        + " 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'");
        assertRefused(
                "CALL lake.sys.expire_snapshots('db')",
                "Invalid argument 'table' of sys.expire_snapshots: 'db'; name a table as"
                        + " 'database.table'");

        // Positional: keep at most 4, at least 1 (all are younger than snapshot.time-retained).
        assertThat(call("CALL lake.sys.expire_snapshots('db.t', 4, 1)"))
                .containsExactly(
                        "+I[Expired 1 snapshot of table db.t, 4 left: deleted 0 data files, 2"
                                + " manifest files and 0 expired tags]");
        assertThat(
                        call(
                                "CALL lake.sys.expire_snapshots(`table` => 'db.t', retain_min => 1,"
                                        + " older_than => '2999-01-01 00:00:00', max_deletes => 10)"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Expired 3 snapshots of table db.t, 1 left:"));
        assertThat(snapshotFiles("t")).isEqualTo(1);
        assertThat(sql.query("SELECT COUNT(*) FROM db.t /*+ OPTIONS('scan.tag-name' = 'eod') */"))
                .containsExactly("+I[20]");
        assertThatThrownBy(
                        () ->
                                sql.query(
                                        "SELECT * FROM db.t /*+ OPTIONS('scan.snapshot-id' = '2') */"))
                .rootCause()
                .hasMessageContaining("snapshot 2 does not exist")
                .hasMessageContaining("'snapshot.time-retained' = PT1H");

        assertRefused(
                "CALL lake.sys.rollback_to(`table` => 'db.t', tag => 'eod')",
                "Invalid argument 'tag' of sys.rollback_to: Cannot roll back table db.t to"
                        + " snapshot 2: tags 'last' (snapshot 5) pin later snapshots; delete them"
                        + " first");
        assertRefused(
                "CALL lake.sys.rollback_to(`table` => 'db.t')",
                "Invalid argument 'snapshot_id' of sys.rollback_to: NULL; give either snapshot_id"
                        + " or tag (tag: NULL)");
        assertRefused(
                "CALL lake.sys.rollback_to(`table` => 'db.t', snapshot_id => 9)",
                "Invalid argument 'snapshot_id' of sys.rollback_to: Cannot roll back table db.t to"
                        + " snapshot 9: it does not exist; the table has snapshots 5 to 5");
        assertRefused(
                "CALL lake.sys.delete_tag(`table` => 'db.t', tag => 'nope')",
                "Invalid argument 'tag' of sys.delete_tag: Cannot delete tag 'nope' of table db.t:"
                        + " no such tag");
        assertThat(call("CALL lake.sys.delete_tag('db.t', 'last')"))
                .containsExactly("+I[Deleted tag 'last' of table db.t]");
        assertThat(call("CALL lake.sys.rollback_to(`table` => 'db.t', tag => 'eod')"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Rolled table db.t back to snapshot 2"));
        assertThat(sql.query("SELECT COUNT(*), MAX(id) FROM db.t")).containsExactly("+I[20, 20]");
        sql.insertIds("db.t", 100, 104);
        assertThat(sql.query("SELECT COUNT(*), MAX(id) FROM db.t")).containsExactly("+I[25, 104]");
        assertThat(Files.exists(warehouse.resolve("db.db/t/snapshot/snapshot-3"))).isTrue();
    }

    /**
     * Issue 23: an explicit call expires all its arguments allow, not {@code snapshot.expire.limit}
     * (10) at a time; omitted arguments come from the table's options, and a retain_max below the
     * retain_min in force is refused naming both.
     */
    @Test
    void anExplicitCallExpiresAllItsArgumentsAllowAndRefusesContradictions() throws Exception {
        sql.exec(
                "CREATE TABLE db.pk (id BIGINT NOT NULL, v STRING, dt STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '1', 'write-only' = 'true')");
        org.apache.flink.core.fs.Path location =
                new org.apache.flink.core.fs.Path(warehouse.toUri() + "/db.db/pk");
        for (long i = 1; i <= 36; i++) {
            TestCatalogTables.append(location, "db.pk", i, new Object[] {i, "v" + i, "x"});
        }
        assertThat(sql.query("SELECT COUNT(*) FROM db.`pk$snapshots`")).containsExactly("+I[36]");

        assertRefused(
                "CALL lake.sys.expire_snapshots(`table` => 'db.pk', retain_max => 1)",
                "Invalid argument 'retain_max' of sys.expire_snapshots: Cannot expire snapshots"
                        + " of table db.pk: retain_max 1 is less than retain_min 10 (the table's"
                        + " 'snapshot.num-retained.min'); give a retain_min of at most 1 too");
        assertRefused(
                "CALL lake.sys.expire_snapshots(`table` => 'db.pk', retain_max => 3,"
                        + " retain_min => 4)",
                "Invalid argument 'retain_max' of sys.expire_snapshots: Cannot expire snapshots"
                        + " of table db.pk: retain_max 3 is less than retain_min 4");
        assertThat(snapshotFiles("pk")).isEqualTo(36);

        assertThat(
                        call(
                                "CALL lake.sys.expire_snapshots(`table` => 'db.pk', retain_min => 1,"
                                        + " retain_max => 5)"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Expired 31 snapshots of table db.pk, 5 left:"));
        assertThat(sql.query("SELECT snapshot_id FROM db.`pk$snapshots`"))
                .containsExactly("+I[32]", "+I[33]", "+I[34]", "+I[35]", "+I[36]");
        assertThat(sql.query("SELECT COUNT(*) FROM db.pk")).containsExactly("+I[36]");

        // Omitted arguments are the table's options.
        sql.exec(
                "ALTER TABLE db.pk SET ('snapshot.num-retained.min' = '1',"
                        + " 'snapshot.num-retained.max' = '4')");
        assertRefused(
                "CALL lake.sys.expire_snapshots(`table` => 'db.pk', retain_min => 5)",
                "Invalid argument 'retain_min' of sys.expire_snapshots: Cannot expire snapshots"
                        + " of table db.pk: retain_max 4 (the table's 'snapshot.num-retained.max')"
                        + " is less than retain_min 5; give a retain_max of at least 5 too");
        assertThat(call("CALL lake.sys.expire_snapshots('db.pk')"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Expired 1 snapshot of table db.pk, 4 left:"));
        // Younger than snapshot.time-retained (1 h): kept down to retain_max only.
        assertThat(call("CALL lake.sys.expire_snapshots(`table` => 'db.pk', retain_max => 4)"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Expired 0 snapshots of table db.pk, 4 left:"));
        sql.exec("ALTER TABLE db.pk SET ('snapshot.time-retained' = '1 ms')");
        assertThat(call("CALL lake.sys.expire_snapshots('db.pk')"))
                .hasSize(1)
                .allMatch(r -> r.startsWith("+I[Expired 3 snapshots of table db.pk, 1 left:"));
        assertThat(sql.query("SELECT COUNT(*) FROM db.pk")).containsExactly("+I[36]");
    }

    @Test
    void aStreamingInsertExpiresSnapshotsAsItCommits() throws Exception {
        int rows = 3000;
        sql.exec(
                "CREATE TABLE db.s (id INT, name STRING) WITH ('snapshot.num-retained.max' = '2',"
                        + " 'snapshot.num-retained.min' = '1')");
        TableEnvironment env =
                LakeSql.streaming(
                        warehouse,
                        "parallelism.default",
                        "1",
                        "execution.checkpointing.interval",
                        "100ms");
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + rows
                        + "', 'number-of-rows' = '"
                        + rows
                        + "', 'rows-per-second' = '300')");
        env.executeSql("INSERT INTO db.s SELECT id, 'n' || CAST(id AS STRING) FROM gen").await();
        assertThat(
                        sql.query(
                                "SELECT COUNT(*), SUM(CAST(id AS BIGINT)), COUNT(DISTINCT id) FROM db.s"))
                .containsExactly(
                        "+I[" + rows + ", " + (long) rows * (rows + 1) / 2 + ", " + rows + "]");
        Path snapshots = warehouse.resolve("db.db/s/snapshot");
        long latest =
                dev.tarn.format.Table.load(
                                dev.tarn.format.io.FileIO.flinkFileSystems(),
                                new org.apache.flink.core.fs.Path(warehouse.toUri() + "/db.db/s"),
                                "db.s")
                        .metadata()
                        .latestSnapshotId()
                        .getAsLong();
        assertThat(latest).as("commits of the job").isGreaterThan(3);
        assertThat(Files.exists(snapshots.resolve("snapshot-1")))
                .as("snapshot 1 expired")
                .isFalse();
        assertThat(snapshotFiles("s")).isBetween(1L, 2L);
    }
}
