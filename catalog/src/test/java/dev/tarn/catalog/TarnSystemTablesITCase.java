package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.read.TableFiles.BucketFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system tables through SQL over real history: appends, an option change and a compaction of an
 * append table; a partitioned, bucketed primary-key table with updates, deletes and a compaction,
 * read through its audit log in batch and streaming mode by a consumer; and the refusals.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnSystemTablesITCase {

    /** Slots for one following query at parallelism 2 beside batch jobs. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path lake;
    private LakeSql sql;
    private final List<Follower> followers = new ArrayList<>();

    @BeforeEach
    void open() {
        sql = LakeSql.open(lake);
    }

    @AfterEach
    void cancel() throws Exception {
        for (Follower f : followers) {
            f.close();
        }
    }

    private List<String> query(String statement) throws Exception {
        return sql.query(statement);
    }

    @Test
    void metadataTablesShowAnAppendTablesHistory() throws Exception {
        sql.exec("CREATE TABLE db.t (id INT, name STRING) COMMENT 'ids' WITH ('bucket' = '-1')");
        long start = System.currentTimeMillis();
        sql.insertIds("db.t", 1, 2);
        sql.insertIds("db.t", 3, 5);
        sql.exec("ALTER TABLE db.t SET ('target-file-size' = '64mb')");
        sql.insertIds("db.t", 6, 6);
        sql.exec("CALL lake.sys.compact('db.t')");

        assertThat(
                        query(
                                "SELECT snapshot_id, schema_id, commit_kind, total_record_count,"
                                        + " delta_record_count, changelog_manifest_list,"
                                        + " changelog_record_count, `watermark`"
                                        + " FROM db.`t$snapshots`"))
                .containsExactly(
                        "+I[1, 0, APPEND, 2, 2, null, null, null]",
                        "+I[2, 0, APPEND, 5, 3, null, null, null]",
                        "+I[3, 1, APPEND, 6, 1, null, null, null]",
                        "+I[4, 1, COMPACT, 6, 0, null, null, null]");
        List<String> commits =
                query(
                        "SELECT COUNT(DISTINCT commit_user), MIN(commit_identifier),"
                                + " MIN(commit_time) >= TO_TIMESTAMP_LTZ("
                                + (start - 1000)
                                + ", 3), COUNT(*) FILTER (WHERE base_manifest_list LIKE"
                                + " 'manifest-list-%' AND delta_manifest_list LIKE"
                                + " 'manifest-list-%') FROM db.`t$snapshots`");
        assertThat(commits).hasSize(1);
        assertThat(commits.get(0)).endsWith(", true, 4]");

        assertThat(query("SELECT * FROM db.`t$schemas`"))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row).contains("ids"))
                .satisfies(
                        rows ->
                                assertThat(rows.get(0))
                                        .startsWith(
                                                "+I[0, [{\"id\":0,\"name\":\"id\",\"type\":\"INT\"},"
                                                        + "{\"id\":1,\"name\":\"name\",\"type\":"
                                                        + "\"VARCHAR(2147483647)\"}], [], [],"
                                                        + " {\"bucket\":\"-1\"}, ids, "),
                        rows ->
                                assertThat(rows.get(1))
                                        .contains(
                                                "{\"bucket\":\"-1\","
                                                        + "\"target-file-size\":\"64mb\"}"));
        assertThat(query("SELECT * FROM db.`t$options`"))
                .containsExactly("+I[bucket, -1]", "+I[target-file-size, 64mb]");

        // After the compaction, one file holds all rows; the manifests add up to it.
        assertThat(query("SELECT bucket, level, record_count, min_value_stats FROM db.`t$files`"))
                .containsExactly("+I[0, 0, 6, {id=1, name=n1}]");
        assertThat(
                        query(
                                "SELECT SUM(num_added_files) - SUM(num_deleted_files),"
                                        + " MIN(schema_id), MAX(schema_id),"
                                        + " COUNT(*) FILTER (WHERE file_name LIKE 'manifest-%')"
                                        + " = COUNT(*) FROM db.`t$manifests`"))
                .containsExactly("+I[1, 0, 1, true]");
        // Time travel: snapshot 2 had two files.
        assertThat(
                        query(
                                "SELECT COUNT(*), SUM(record_count) FROM db.`t$files`"
                                        + " /*+ OPTIONS('scan.snapshot-id' = '2') */"))
                .containsExactly("+I[2, 5]");

        // In streaming mode a metadata table is a bounded read that ends.
        TableEnvironment streaming = LakeSql.streaming(lake);
        List<String> ids = new ArrayList<>();
        try (CloseableIterator<Row> it =
                streaming.executeSql("SELECT snapshot_id FROM db.`t$snapshots`").collect()) {
            it.forEachRemaining(r -> ids.add(r.toString()));
        }
        assertThat(ids).containsExactly("+I[1]", "+I[2]", "+I[3]", "+I[4]");
    }

    @Test
    void aPrimaryKeyTablesFilesAuditLogAndConsumers() throws Exception {
        sql.exec(
                "CREATE TABLE db.users (id BIGINT, name STRING, dt STRING,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2', 'changelog-producer' = 'lookup')");
        sql.exec(
                "INSERT INTO db.users VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y'),"
                        + " (4, 'd', 'x')");
        sql.exec("INSERT INTO db.users VALUES (1, 'a2', 'x')");

        assertThat(query("SELECT `partition`, record_count, file_count FROM db.`users$partitions`"))
                .containsExactly("+I[dt=x, 4, " + filesIn("x") + "]", "+I[dt=y, 1, 1]");
        assertThat(
                        query(
                                "SELECT `partition`, SUM(record_count), SUM(file_count),"
                                        + " SUM(level0_file_count) FROM db.`users$buckets`"
                                        + " GROUP BY `partition`"))
                .containsExactlyInAnyOrder(
                        "+I[dt=x, 4, " + filesIn("x") + ", " + filesIn("x") + "]",
                        "+I[dt=y, 1, 1, 1]");
        assertThat(
                        query(
                                "SELECT `partition`, level, record_count, min_key, max_key,"
                                        + " null_value_counts, min_value_stats, max_value_stats"
                                        + " FROM db.`users$files` WHERE `partition` = 'dt=y'"))
                .containsExactly(
                        "+I[dt=y, 0, 1, [3, y], [3, y], {id=0, name=0, dt=0},"
                                + " {id=3, name=c, dt=y}, {id=3, name=c, dt=y}]");
        assertThat(
                        query(
                                "SELECT SUM(file_size_in_bytes), COUNT(*) FILTER (WHERE file_path"
                                        + " LIKE '%/dt=_/bucket-_/data-%.parquet' AND file_format"
                                        + " = 'parquet' AND creation_time IS NOT NULL)"
                                        + " FROM db.`users$files`"))
                .containsExactly("+I[" + dataFileBytes() + ", " + dataFiles() + "]");

        Follower audit =
                new Follower(
                        LakeSql.streaming(lake, "execution.checkpointing.interval", "100ms")
                                .executeSql(
                                        "SELECT * FROM db.`users$audit_log`"
                                                + " /*+ OPTIONS('consumer-id' = 'auditor') */"));
        followers.add(audit);
        assertThat(audit.take(4))
                .containsExactlyInAnyOrder(
                        "+I[+I, 1, a2, x]",
                        "+I[+I, 2, b, x]",
                        "+I[+I, 3, c, y]",
                        "+I[+I, 4, d, x]");
        sql.exec("INSERT INTO db.users VALUES (3, 'c2', 'y')");
        assertThat(audit.take(2)).containsExactly("+I[-U, 3, c, y]", "+I[+U, 3, c2, y]");
        sql.exec("DELETE FROM db.users WHERE id = 2");
        assertThat(audit.take(1)).containsExactly("+I[-D, 2, b, x]");
        audit.assertNothingMore();
        // The consumer records the next snapshot it needs: the one after the delete (snapshot 4).
        Follower.awaitTrue(
                () -> query("SELECT * FROM db.`users$consumers`").contains("+I[auditor, 5]"));
        assertThat(query("SELECT * FROM db.`users$consumers`")).containsExactly("+I[auditor, 5]");

        // In batch mode, the audit log is the latest snapshot, every row an insert.
        assertThat(query("SELECT * FROM db.`users$audit_log`"))
                .containsExactlyInAnyOrder(
                        "+I[+I, 1, a2, x]", "+I[+I, 3, c2, y]", "+I[+I, 4, d, x]");

        sql.exec("CALL lake.sys.compact('db.users')");
        // lookup over the deduplicate engine stores before-images: a row per previous row that
        // a snapshot's changes replace or delete (none for the first insert).
        assertThat(
                        query(
                                "SELECT snapshot_id, commit_kind, changelog_record_count"
                                        + " FROM db.`users$snapshots`"))
                .containsExactly(
                        "+I[1, APPEND, 0]",
                        "+I[2, APPEND, 1]",
                        "+I[3, APPEND, 1]",
                        "+I[4, APPEND, 1]",
                        "+I[5, COMPACT, null]");
        // One sorted run per bucket at the last level, the tombstone gone.
        assertThat(
                        query(
                                "SELECT SUM(record_count), SUM(level0_file_count),"
                                        + " COUNT(*) = SUM(file_count) FROM db.`users$buckets`"))
                .containsExactly("+I[3, 0, true]");
        assertThat(query("SELECT DISTINCT level FROM db.`users$files`")).containsExactly("+I[5]");
    }

    @Test
    void deletionVectorsShowInFilesAndInTheirOwnTable() throws Exception {
        sql.exec(
                "CREATE TABLE db.dv (id BIGINT, name STRING, dt STRING,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '1', 'deletion-vectors.enabled' = 'true')");
        sql.exec(
                "INSERT INTO db.dv VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y'),"
                        + " (4, 'd', 'y')");
        // Row 1 of one of the two files deleted, as a writer of deletion vectors leaves it.
        BucketFile marked =
                TestCatalogTables.deleteRows(
                        new org.apache.flink.core.fs.Path(lake.resolve("db.db/dv").toUri()),
                        "db.dv",
                        1,
                        1);
        String partition = "dt=" + marked.partition().values().get(0);
        String other = partition.equals("dt=x") ? "dt=y" : "dt=x";

        assertThat(
                        query(
                                "SELECT `partition`, file_path, deleted_record_count"
                                        + " FROM db.`dv$files` ORDER BY `partition`"))
                .containsExactlyInAnyOrder(
                        "+I[" + partition + ", " + marked.path() + ", 1]",
                        "+I[" + other + ", " + pathOf("dv", other) + ", 0]");
        List<String> vectors = query("SELECT * FROM db.`dv$deletion_vectors`");
        assertThat(vectors).hasSize(1);
        assertThat(vectors.get(0))
                .startsWith("+I[" + partition + ", 0, " + marked.path() + ", file:")
                .matches(".*/db\\.db/dv/index/dv-[-0-9a-f]+\\.puffin, 4, [1-9][0-9]*, 1]");
        // As of the snapshot before the vector, and after a compaction that removed it.
        String before = " /*+ OPTIONS('scan.snapshot-id' = '1') */";
        assertThat(query("SELECT COUNT(*) FROM db.`dv$deletion_vectors`" + before))
                .containsExactly("+I[0]");
        assertThat(query("SELECT SUM(deleted_record_count) FROM db.`dv$files`" + before))
                .containsExactly("+I[0]");
        sql.exec("CALL lake.sys.compact('db.dv')");
        assertThat(query("SELECT COUNT(*) FROM db.`dv$deletion_vectors`")).containsExactly("+I[0]");
        assertThat(query("SELECT SUM(deleted_record_count), SUM(record_count) FROM db.`dv$files`"))
                .containsExactly("+I[0, 3]");
    }

    /** The path of the one live data file of {@code partition} of table {@code table}. */
    private String pathOf(String table, String partition) throws Exception {
        List<String> paths =
                query(
                        "SELECT file_path FROM db.`"
                                + table
                                + "$files` WHERE `partition` = '"
                                + partition
                                + "'");
        assertThat(paths).hasSize(1);
        return paths.get(0).substring(3, paths.get(0).length() - 1);
    }

    @Test
    void filesListTheStatisticsOfEveryColumnOfTheCurrentSchema() throws Exception {
        sql.exec("CREATE TABLE db.t (id INT, name STRING, note STRING) WITH ('bucket' = '-1')");
        sql.exec("INSERT INTO db.t VALUES (1, 'a', CAST(NULL AS STRING))");
        sql.exec("ALTER TABLE db.t ADD (score INT)");
        sql.exec("ALTER TABLE db.t RENAME name TO label");
        sql.exec("ALTER TABLE db.t DROP (note)");
        sql.exec("INSERT INTO db.t VALUES (2, 'b', 7)");

        // By field id: a renamed column under its new name, a dropped one gone, and one added
        // after the file was written with a null count and bounds of null (the file has none).
        assertThat(
                        query(
                                "SELECT schema_id, null_value_counts, min_value_stats,"
                                        + " max_value_stats FROM db.`t$files` ORDER BY schema_id"))
                .containsExactly(
                        "+I[0, {id=0, label=0, score=null}, {id=1, label=a, score=null},"
                                + " {id=1, label=a, score=null}]",
                        "+I[3, {id=0, label=0, score=0}, {id=2, label=b, score=7},"
                                + " {id=2, label=b, score=7}]");
    }

    /** How many data files partition {@code dt} holds (before any compaction, all are live). */
    private long filesIn(String dt) throws Exception {
        try (Stream<Path> files = Files.walk(lake.resolve("db.db/users/dt=" + dt))) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).count();
        }
    }

    private List<Path> dataFilePaths() throws Exception {
        try (Stream<Path> files = Files.walk(lake.resolve("db.db/users"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).toList();
        }
    }

    private long dataFiles() throws Exception {
        return dataFilePaths().size();
    }

    private long dataFileBytes() throws Exception {
        long bytes = 0;
        for (Path f : dataFilePaths()) {
            bytes += Files.size(f);
        }
        return bytes;
    }

    @Test
    void systemTablesAreReadOnlyAndUnknownOnesDoNotExist() throws Exception {
        sql.exec("CREATE TABLE db.t (id INT, name STRING)");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "INSERT INTO db.`t$snapshots` SELECT * FROM db.`t$snapshots`"))
                .rootCause()
                .hasMessage(
                        "Cannot write to table lake.db.t$snapshots: it is the system table"
                                + " 'snapshots' of a Tarn table, and system tables are read-only");
        String readOnly =
                " in catalog lake: a name with '$' is a system table (one of [snapshots, schemas,"
                        + " options, files, manifests, partitions, buckets, consumers, tags, deletion_vectors, health, audit_log]"
                        + " after the '$'), and system tables are read-only";
        assertThatThrownBy(() -> sql.exec("DROP TABLE db.`t$options`"))
                .rootCause()
                .hasMessage("Cannot drop table db.t$options" + readOnly);
        assertThatThrownBy(() -> sql.exec("ALTER TABLE db.`t$options` SET ('bucket' = '2')"))
                .rootCause()
                .hasMessage("Cannot alter table db.t$options" + readOnly);
        assertThatThrownBy(() -> sql.exec("CREATE TABLE db.`u$files` (id INT)"))
                .rootCause()
                .hasMessage("Cannot create table db.u$files" + readOnly);
        assertThatThrownBy(() -> query("SELECT * FROM db.`t$nope`"))
                .hasMessageContaining("Object 't$nope' not found");
        assertThatThrownBy(() -> query("SELECT * FROM db.`gone$snapshots`"))
                .hasMessageContaining("Object 'gone$snapshots' not found");
        assertThat(query("SHOW TABLES FROM db")).containsExactly("+I[t]");
        assertThat(query("SELECT * FROM db.`t$snapshots`")).isEmpty();
        assertThat(query("SELECT COUNT(*) FROM db.`t$schemas`")).containsExactly("+I[1]");
    }
}
