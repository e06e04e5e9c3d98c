package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
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
 * {@code TRUNCATE TABLE} on append and primary-key tables, partitioned and not: one OVERWRITE
 * snapshot without live files, time travel to the snapshot before it, streaming reads with and
 * without {@code streaming-read-overwrite}, and later writes that see none of the old rows.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TarnTruncateITCase {

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
    private Follower follower;

    @BeforeEach
    void open() {
        sql = LakeSql.open(lake);
    }

    @AfterEach
    void cancel() throws Exception {
        if (follower != null) {
            follower.close();
        }
    }

    private List<String> sorted(String query) throws Exception {
        List<String> rows = new ArrayList<>(sql.query(query));
        rows.sort(null);
        return rows;
    }

    private static String partitioning(boolean partitioned) {
        return partitioned ? " PARTITIONED BY (dt)" : "";
    }

    @ParameterizedTest(name = "partitioned: {0}")
    @ValueSource(booleans = {false, true})
    void anAppendTableIsEmptiedByOneOverwriteSnapshot(boolean partitioned) throws Exception {
        sql.exec(
                "CREATE TABLE db.a (id INT, name STRING, dt STRING)"
                        + partitioning(partitioned)
                        + " WITH ('bucket' = '2', 'bucket-key' = 'id')");
        sql.exec("INSERT INTO db.a VALUES (1, 'a', 'x'), (2, 'b', 'y')");
        sql.exec("INSERT INTO db.a VALUES (3, 'c', 'x')");

        sql.exec("TRUNCATE TABLE db.a");

        assertThat(sql.query("SELECT * FROM db.a")).isEmpty();
        assertThat(
                        sql.query(
                                "SELECT snapshot_id, commit_kind, total_record_count,"
                                        + " delta_record_count FROM db.`a$snapshots`"))
                .containsExactly(
                        "+I[1, APPEND, 2, 2]", "+I[2, APPEND, 3, 1]", "+I[3, OVERWRITE, 0, -3]");
        assertThat(sql.query("SELECT COUNT(*) FROM db.`a$files`")).containsExactly("+I[0]");
        if (partitioned) {
            assertThat(sql.query("SHOW PARTITIONS db.a")).isEmpty();
        }
        // Time travel still reads the rows.
        assertThat(sorted("SELECT id FROM db.a /*+ OPTIONS('scan.snapshot-id' = '2') */"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]");

        sql.exec("INSERT INTO db.a VALUES (4, 'd', 'x')");
        assertThat(sql.query("SELECT * FROM db.a")).containsExactly("+I[4, d, x]");
    }

    /**
     * After a truncate, a write starts from a table without files: a partial update of a key finds
     * no old row to complete, and a compaction has no old file to bring back.
     */
    @ParameterizedTest(name = "partitioned: {0}")
    @ValueSource(booleans = {false, true})
    void aPrimaryKeyTableKeepsNoOldRowThroughLaterWritesAndCompaction(boolean partitioned)
            throws Exception {
        sql.exec(
                "CREATE TABLE db.p (id INT NOT NULL, name STRING, v INT, dt STRING NOT NULL,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED)"
                        + partitioning(partitioned)
                        + " WITH ('bucket' = '2', 'merge-engine' = 'partial-update')");
        sql.exec("INSERT INTO db.p VALUES (1, 'a', 10, 'x'), (2, 'b', 20, 'x'), (3, 'c', 30, 'y')");
        sql.exec("INSERT INTO db.p VALUES (1, 'a2', CAST(NULL AS INT), 'x')");

        sql.exec("TRUNCATE TABLE db.p");

        assertThat(sql.query("SELECT * FROM db.p")).isEmpty();
        List<String> snapshots =
                sql.query("SELECT commit_kind, total_record_count FROM db.`p$snapshots`");
        assertThat(snapshots.get(snapshots.size() - 1)).isEqualTo("+I[OVERWRITE, 0]");
        // Key 1 again, with its name left out: nothing of the truncated rows completes it.
        sql.exec("INSERT INTO db.p VALUES (1, CAST(NULL AS STRING), 11, 'x')");
        sql.exec("INSERT INTO db.p VALUES (3, 'c2', CAST(NULL AS INT), 'y')");
        assertThat(sorted("SELECT * FROM db.p"))
                .containsExactly("+I[1, null, 11, x]", "+I[3, c2, null, y]");
        sql.exec("CALL lake.sys.compact(`table` => 'db.p')");
        assertThat(sorted("SELECT * FROM db.p"))
                .containsExactly("+I[1, null, 11, x]", "+I[3, c2, null, y]");
        // The snapshot before the truncate still reads as it did.
        long beforeTruncate = snapshots.size() - 1;
        assertThat(
                        sorted(
                                "SELECT * FROM db.p /*+ OPTIONS('scan.snapshot-id' = '"
                                        + beforeTruncate
                                        + "') */"))
                .containsExactly("+I[1, a2, 10, x]", "+I[2, b, 20, x]", "+I[3, c, 30, y]");
    }

    @Test
    void aStreamingReadGetsTheTruncatedRowsAsDeletionsOnlyWhenAskedTo() throws Exception {
        sql.exec("CREATE TABLE db.s (id INT, dt STRING) PARTITIONED BY (dt)");
        sql.exec("INSERT INTO db.s VALUES (1, 'x'), (2, 'y')");
        TableEnvironment streaming = LakeSql.streaming(lake);
        follower =
                new Follower(
                        streaming.executeSql(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'latest',"
                                        + " 'streaming-read-overwrite' = 'true') */"));
        follower.awaitRunning();
        Follower skipping =
                new Follower(
                        streaming.executeSql(
                                "SELECT * FROM db.s /*+ OPTIONS('scan.mode' = 'latest') */"));
        try {
            skipping.awaitRunning();
            sql.exec("TRUNCATE TABLE db.s");
            sql.exec("INSERT INTO db.s VALUES (3, 'x')");
            assertThat(follower.take(3))
                    .containsExactlyInAnyOrder("-D[1, x]", "-D[2, y]", "+I[3, x]");
            follower.assertNothingMore();
            assertThat(skipping.take(1)).containsExactly("+I[3, x]");
            skipping.assertNothingMore();
        } finally {
            skipping.close();
        }
    }

    @Test
    void aPrimaryKeyStreamingReadGetsTheTruncatedRowsAsDeletions() throws Exception {
        sql.exec(
                "CREATE TABLE db.k (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        sql.exec("INSERT INTO db.k VALUES (1, 'a'), (2, 'b')");
        follower =
                new Follower(
                        LakeSql.streaming(lake)
                                .executeSql(
                                        "SELECT * FROM db.k /*+ OPTIONS("
                                                + "'streaming-read-overwrite' = 'true') */"));
        assertThat(follower.take(2)).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");
        sql.exec("TRUNCATE TABLE db.k");
        sql.exec("INSERT INTO db.k VALUES (1, 'c')");
        // Key 1 comes back as a new row, after its deletion (buckets interleave).
        List<String> rows = follower.take(3);
        assertThat(rows).containsExactlyInAnyOrder("-D[1, a]", "-D[2, b]", "+I[1, c]");
        assertThat(rows.indexOf("-D[1, a]")).isLessThan(rows.indexOf("+I[1, c]"));
        follower.assertNothingMore();
    }

    /**
     * Without {@code streaming-read-overwrite} a read skips the truncate, as any overwrite: what it
     * emitted stands, and a later write of a truncated key updates the row it emitted.
     */
    @Test
    void aPrimaryKeyStreamingReadSkipsATruncateByDefault() throws Exception {
        sql.exec(
                "CREATE TABLE db.k (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '1')");
        sql.exec("INSERT INTO db.k VALUES (1, 'a'), (2, 'b')");
        follower = new Follower(LakeSql.streaming(lake).executeSql("SELECT * FROM db.k"));
        assertThat(follower.take(2)).containsExactly("+I[1, a]", "+I[2, b]");
        sql.exec("TRUNCATE TABLE db.k");
        sql.exec("INSERT INTO db.k VALUES (1, 'c')");
        assertThat(follower.take(2)).containsExactly("-U[1, a]", "+U[1, c]");
        follower.assertNothingMore();
    }

    @Test
    void anEmptyTableTruncatesAndStreamingModeAndSystemTablesAreRefused() throws Exception {
        sql.exec("CREATE TABLE db.e (id INT)");
        sql.exec("TRUNCATE TABLE db.e");
        assertThat(sql.query("SELECT snapshot_id, commit_kind FROM db.`e$snapshots`"))
                .containsExactly("+I[1, OVERWRITE]");
        sql.exec("INSERT INTO db.e VALUES (1)");
        assertThat(sql.query("SELECT * FROM db.e")).containsExactly("+I[1]");

        assertThatThrownBy(() -> LakeSql.streaming(lake).executeSql("TRUNCATE TABLE db.e"))
                .hasMessage("TRUNCATE TABLE statement is not supported in streaming mode.");
        assertThatThrownBy(() -> sql.exec("TRUNCATE TABLE db.`e$snapshots`"))
                .rootCause()
                .hasMessage(
                        "Cannot write to table lake.db.e$snapshots: it is the system table"
                                + " 'snapshots' of a Tarn table, and system tables are read-only");
        assertThat(sql.query("SELECT * FROM db.e")).containsExactly("+I[1]");
    }
}
