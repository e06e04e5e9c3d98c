package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL sys.compact} as a Flink job through SQL: it compacts the buckets of the partitions it
 * is given (a primary-key table's into one run, an append table's small files into one file),
 * publishes one COMPACT snapshot, changes no row, and refuses bad arguments naming them.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TarnCompactJobITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void open() {
        sql = LakeSql.open(lake);
    }

    @Test
    void compactsTheBucketsOfTheGivenPartitionsOfAPrimaryKeyTable(
            @InjectClusterClient ClusterClient<?> cluster) throws Exception {
        sql.exec(
                "CREATE TABLE db.pk (id INT NOT NULL, name STRING, dt STRING NOT NULL,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2')");
        for (int round = 0; round < 3; round++) {
            sql.exec(
                    "INSERT INTO db.pk SELECT id, 'r"
                            + round
                            + "', dt FROM (VALUES (1), (2), (3), (4), (5), (6)) AS i(id),"
                            + " (VALUES ('a'), ('b'), ('c')) AS p(dt)");
        }
        sql.exec("DELETE FROM db.pk WHERE id = 6");
        List<String> before = sql.query("SELECT * FROM db.pk ORDER BY dt, id");
        LakeFiles files = new LakeFiles(lake, "pk");
        long jobsBefore = compactionJobs(cluster);
        // Three inserts in every bucket, and the delete's tombstone in one bucket per partition.
        assertThat(files.filesByBucket()).hasSize(6);
        assertThat(files.filesByPartition()).isEqualTo(Map.of("[a]", 7, "[b]", 7, "[c]", 7));

        assertThat(
                        sql.query(
                                "CALL lake.sys.compact(`table` => 'db.pk', `partitions` => 'dt=a;dt=b')"))
                .containsExactly(
                        "+I[Compacted 4 buckets of table db.pk into snapshot 5 (14 files into 4)]");

        assertThat(files.filesByBucket())
                .containsAllEntriesOf(Map.of("[a]/0", 1, "[a]/1", 1, "[b]/0", 1, "[b]/1", 1));
        assertThat(files.filesByPartition()).isEqualTo(Map.of("[a]", 2, "[b]", 2, "[c]", 7));
        assertThat(sql.query("SELECT * FROM db.pk ORDER BY dt, id")).isEqualTo(before).hasSize(15);
        Snapshot latest = files.snapshots().get(files.snapshots().size() - 1);
        assertThat(latest.commit().kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(compactionJobs(cluster))
                .as("the procedure ran a Flink job")
                .isEqualTo(jobsBefore + 1);

        // Positional arguments; the rest of the table.
        assertThat(sql.query("CALL lake.sys.compact('db.pk')"))
                .containsExactly(
                        "+I[Compacted 2 buckets of table db.pk into snapshot 6 (7 files into 2)]");
        assertThat(files.filesByBucket()).allSatisfy((b, n) -> assertThat(n).isEqualTo(1));
        assertThat(sql.query("CALL lake.sys.compact('db.pk')"))
                .containsExactly("+I[Table db.pk is compacted already: 6 buckets]");
        assertThat(sql.query("SELECT * FROM db.pk ORDER BY dt, id")).isEqualTo(before);
    }

    @Test
    void mergesTheSmallFilesOfAnAppendTableInThePartitionsWhereSelects() throws Exception {
        sql.exec("CREATE TABLE db.events (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        for (int i = 0; i < 4; i++) {
            sql.exec(
                    "INSERT INTO db.events VALUES ("
                            + i
                            + ", '2026-11-01'), ("
                            + (10 + i)
                            + ", '2026-11-30'), ("
                            + (20 + i)
                            + ", '2026-12-01')");
        }
        List<String> before = sql.query("SELECT * FROM db.events ORDER BY id");
        LakeFiles files = new LakeFiles(lake, "events");
        assertThat(files.filesByPartition())
                .isEqualTo(Map.of("[2026-11-01]", 4, "[2026-11-30]", 4, "[2026-12-01]", 4));

        assertThat(
                        sql.query(
                                "CALL lake.sys.compact(`table` => 'db.events', `where` => 'dt >"
                                        + " ''2026-11-01'' AND NOT dt IN (''2026-12-02'')')"))
                .containsExactly(
                        "+I[Compacted 2 buckets of table db.events into snapshot 5 (8 files into"
                                + " 2)]");

        assertThat(files.filesByPartition())
                .isEqualTo(Map.of("[2026-11-01]", 4, "[2026-11-30]", 1, "[2026-12-01]", 1));
        assertThat(sql.query("SELECT * FROM db.events ORDER BY id")).isEqualTo(before).hasSize(12);
        assertThat(sql.query("CALL lake.sys.compact('db.events', 'dt=2026-11-30')"))
                .containsExactly("+I[Table db.events is compacted already: 1 bucket]");
    }

    @Test
    void refusesBadArgumentsNamingThem() throws Exception {
        sql.exec("CREATE TABLE db.t (id BIGINT, dt STRING, hh INT) PARTITIONED BY (dt, hh)");
        sql.exec("INSERT INTO db.t VALUES (1, 'a', 1)");
        assertRefused(
                "CALL lake.sys.compact('db.missing')",
                "Cannot compact: argument 'table' names no table: Table db.missing does"
                        + " not exist in catalog lake");
        assertRefused(
                "CALL lake.sys.compact('nodatabase')",
                "Cannot compact 'nodatabase': argument 'table' must name a table as"
                        + " 'database.table'");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `partitions` => 'day=a')",
                "Cannot compact table db.t: argument 'partitions' ('day=a') is malformed: 'day' is"
                        + " no partition key; the partition keys are [dt, hh]");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `partitions` => 'dt=a;;dt=b')",
                "argument 'partitions' ('dt=a;;dt=b') is malformed: a partition between ';' is"
                        + " empty. Write partitions as 'k1=v1,k2=v2;k1=v3'");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `partitions` => 'dt')",
                "argument 'partitions' ('dt') is malformed: 'dt' is not key=value");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `where` => 'id > 3')",
                "Cannot compact table db.t: argument 'where' (id > 3) is not a filter of partition"
                        + " columns: 'id' is no partition column; 'where' may only filter the"
                        + " partition columns [dt, hh]");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `where` => 'hh > ''x''')",
                "argument 'where' (hh > 'x') is not a filter of partition columns: 'x' is no"
                        + " number, the type of its column INT");
        assertRefused(
                "CALL lake.sys.compact(`table` => 'db.t', `partitions` => 'dt=a', `where` =>"
                        + " 'hh = 1')",
                "Cannot compact table db.t: give argument 'partitions' or argument 'where', not"
                        + " both");
        assertThat(new LakeFiles(lake, "t").snapshots()).as("nothing was compacted").hasSize(1);
    }

    private void assertRefused(String call, String message) {
        assertThatThrownBy(() -> sql.query(call)).hasStackTraceContaining(message);
    }

    private static long compactionJobs(ClusterClient<?> cluster) throws Exception {
        return cluster.listJobs().get().stream()
                .map(JobStatusMessage::getJobName)
                .filter(name -> name.startsWith("Compact table "))
                .count();
    }
}
