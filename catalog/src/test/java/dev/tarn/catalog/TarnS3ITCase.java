package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.testing.FlinkS3Plugin;
import dev.tarn.testing.S3MockServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.BaseTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tables on S3, as users run them: a catalog whose warehouse is {@code s3://...} with the S3
 * settings as catalog options, data files through Flink's S3 file system (loaded as a plugin, as
 * from {@code plugins/}), commits through conditional puts, against a real S3-compatible server
 * (S3Mock) on loopback: the SQL flows, a streaming read following a streaming write, a streaming
 * write that fails over and still commits every row once, Iceberg metadata beside Tarn's, and a
 * wrong endpoint. One server and one cluster for the class.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnS3ITCase {

    /** Slots for a following query and a writer at parallelism 2, beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    private static S3MockServer server;

    @BeforeAll
    static void start() throws Exception {
        server = S3MockServer.start("lake");
        FlinkS3Plugin.initialize(FlinkS3Plugin.settings(server));
    }

    @AfterAll
    static void stop() {
        FlinkS3Plugin.reset();
        if (server != null) {
            server.close();
        }
    }

    /** A session on catalog {@code lake} at {@code s3://lake/<warehouse>}, settings as options. */
    private static TableEnvironment session(
            EnvironmentSettings mode, String warehouse, Map<String, String> s3, String... config) {
        TableEnvironment env = TableEnvironment.create(mode);
        env.getConfig().set("parallelism.default", "2");
        for (int i = 0; i < config.length; i += 2) {
            env.getConfig().set(config[i], config[i + 1]);
        }
        StringBuilder options = new StringBuilder();
        s3.forEach((k, v) -> options.append(", '").append(k).append("' = '").append(v).append("'"));
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = 's3://lake/"
                        + warehouse
                        + "'"
                        + options
                        + ")");
        env.executeSql("USE CATALOG lake");
        return env;
    }

    private static List<String> query(TableEnvironment env, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    @Test
    void appendAndPrimaryKeyTablesOnS3WithNoListOnTheCommitPath() throws Exception {
        TableEnvironment batch =
                session(EnvironmentSettings.inBatchMode(), "flows", FlinkS3Plugin.settings(server));
        batch.executeSql("CREATE DATABASE db");
        batch.executeSql("CREATE TABLE db.events (id INT, name STRING) WITH ('bucket' = '2')");
        batch.executeSql(
                "CREATE TABLE db.users (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2')");
        // A table's first commit lists its snapshot directory once: there is no LATEST hint yet.
        batch.executeSql("INSERT INTO db.events VALUES (1, 'a'), (2, 'b'), (3, 'c')").await();
        batch.executeSql("INSERT INTO db.users VALUES (1, 'x'), (2, 'y')").await();
        int before = server.requests().size();

        batch.executeSql("INSERT INTO db.events VALUES (4, 'd')").await();
        batch.executeSql("INSERT INTO db.users VALUES (2, 'z'), (3, 'w')").await();
        batch.executeSql("DELETE FROM db.users WHERE id = 1").await();

        assertThat(query(batch, "SELECT * FROM db.events"))
                .containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]", "+I[3, c]", "+I[4, d]");
        assertThat(query(batch, "SELECT * FROM db.users"))
                .containsExactlyInAnyOrder("+I[2, z]", "+I[3, w]");
        assertThat(query(batch, "SELECT snapshot_id FROM db.`users$snapshots`")).isNotEmpty();

        List<String> requests = server.requests().subList(before, server.requests().size());
        assertThat(requests)
                .as("snapshot files created with a conditional put each")
                .anyMatch(r -> r.startsWith("PUT /lake/flows/db.db/users/snapshot/snapshot-2 "));
        assertThat(requests)
                .as("no LIST of snapshot or manifest directories in later commits and reads")
                .noneMatch(
                        r ->
                                r.contains("list-type=2")
                                        && (r.contains("%2Fsnapshot")
                                                || r.contains("%2Fmanifest")));
    }

    /**
     * Iceberg metadata on S3 (SPEC.md, "Iceberg metadata"): Iceberg's generic reader, reading
     * through Tarn's file I/O of the store, sees the rows Tarn reads, of an append table after two
     * appends and of a table with deletion vectors after an upsert. Every Iceberg file is created
     * by one PUT under its own name (no temporary object, copy or delete, as a rename would be),
     * and each {@code v<N>.metadata.json} only after the conditional put of {@code snapshot-<N>}.
     */
    @Test
    void icebergMetadataOnS3IsPutInPlaceAfterEachSnapshotAndReadsAsTarn() throws Exception {
        Map<String, String> s3 = FlinkS3Plugin.settings(server);
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode(), "iceberg", s3);
        batch.executeSql("CREATE DATABASE db");
        String iceberg = "'metadata.iceberg.storage' = 'table-location'";
        batch.executeSql("CREATE TABLE db.events (id INT, name STRING) WITH (" + iceberg + ")");
        batch.executeSql(
                "CREATE TABLE db.users (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('bucket' = '1', 'deletion-vectors.enabled' = 'true', "
                        + iceberg
                        + ")");
        int before = server.requests().size();
        batch.executeSql("INSERT INTO db.events VALUES (1, 'a'), (2, 'b')").await();
        batch.executeSql("INSERT INTO db.events VALUES (3, 'c')").await();
        batch.executeSql("INSERT INTO db.users VALUES (1, 'x'), (2, 'y'), (3, 'z')").await();
        batch.executeSql("INSERT INTO db.users VALUES (2, 'y2'), (4, 'w')").await();
        List<String> requests = server.requests().subList(before, server.requests().size());

        dev.tarn.format.io.FileIO io = dev.tarn.format.io.FileIO.flinkFileSystems(s3);
        for (String table : List.of("events", "users")) {
            IcebergReads reads =
                    new IcebergReads(
                            io,
                            new org.apache.flink.core.fs.Path("s3://lake/iceberg/db.db/" + table));
            assertThat(reads.hint()).as("the hint of %s", table).isEqualTo(2);
            assertThat(reads.rows())
                    .as("Iceberg's read of %s", table)
                    .isNotEmpty()
                    .containsExactlyInAnyOrderElementsOf(query(batch, "SELECT * FROM db." + table));
            BaseTable read = (BaseTable) reads.table();
            assertThat(read.operations().current().formatVersion())
                    .as("the format version of %s (3 for deletion vectors)", table)
                    .isEqualTo(table.equals("users") ? 3 : 2);
        }
        assertThat(query(batch, "SELECT * FROM db.users")).contains("+I[2, y2]").hasSize(4);

        for (String table : List.of("events", "users")) {
            String dir = "/lake/iceberg/db.db/" + table + "/";
            List<String> writes =
                    requests.stream()
                            .filter(r -> r.contains(dir + "metadata/"))
                            .filter(r -> !r.startsWith("GET ") && !r.startsWith("HEAD "))
                            .toList();
            assertThat(writes)
                    .as(
                            "writes of the Iceberg files of %s: one PUT each, under its own name",
                            table)
                    .isNotEmpty()
                    .allMatch(
                            r ->
                                    r.matches(
                                            "PUT "
                                                    + dir
                                                    + "metadata/(v\\d+\\.metadata\\.json"
                                                    + "|version-hint\\.text"
                                                    + "|snap-\\d+-[-0-9a-f]+\\.avro"
                                                    + "|[-0-9a-f]+-m0\\.avro) 200"));
            for (int n = 1; n <= 2; n++) {
                int snapshot = requests.indexOf("PUT " + dir + "snapshot/snapshot-" + n + " 200");
                int version =
                        requests.indexOf("PUT " + dir + "metadata/v" + n + ".metadata.json 200");
                assertThat(snapshot)
                        .as("the conditional put of snapshot %d of %s", n, table)
                        .isNotNegative();
                assertThat(version)
                        .as("version %d of %s, put once and after its snapshot", n, table)
                        .isGreaterThan(snapshot)
                        .isEqualTo(
                                requests.lastIndexOf(
                                        "PUT " + dir + "metadata/v" + n + ".metadata.json 200"));
            }
        }
    }

    @Test
    void aStreamingReadFollowsAStreamingWriteWithCheckpoints() throws Exception {
        Map<String, String> s3 = FlinkS3Plugin.settings(server);
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode(), "streams", s3);
        batch.executeSql("CREATE DATABASE db");
        batch.executeSql("CREATE TABLE db.ticks (id INT, name STRING) WITH ('bucket' = '2')");

        int rows = 300;
        TableEnvironment follow = session(EnvironmentSettings.inStreamingMode(), "streams", s3);
        Follower follower = new Follower(follow.executeSql("SELECT * FROM db.ticks"));
        try {
            follower.awaitRunning();
            TableEnvironment write =
                    session(
                            EnvironmentSettings.inStreamingMode(),
                            "streams",
                            s3,
                            "execution.checkpointing.interval",
                            "300 ms");
            write.executeSql(
                    "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                            + " 'fields.id.end' = '"
                            + rows
                            + "', 'rows-per-second' = '200')");
            write.executeSql("INSERT INTO db.ticks SELECT id, 'n' || CAST(id AS STRING) FROM gen")
                    .await();

            List<String> expected =
                    IntStream.rangeClosed(1, rows)
                            .mapToObj(i -> "+I[" + i + ", n" + i + "]")
                            .toList();
            assertThat(follower.take(rows)).containsExactlyInAnyOrderElementsOf(expected);
            follower.assertNothingMore();
        } finally {
            follower.close();
        }
        assertThat(query(batch, "SELECT COUNT(*) FROM db.`ticks$snapshots`").get(0))
                .as("the write committed at several checkpoints")
                .isNotEqualTo("+I[1]");
    }

    @Test
    void aStreamingWriteWithAFailoverCommitsEveryRowExactlyOnce() throws Exception {
        Map<String, String> s3 = FlinkS3Plugin.settings(server);
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode(), "failover", s3);
        batch.executeSql("CREATE DATABASE db");
        batch.executeSql("CREATE TABLE db.once (id BIGINT, name STRING) WITH ('bucket' = '2')");
        int rows = 600;
        StreamingFunctions.FailAt.reset(rows / 2);
        TableEnvironment write =
                session(
                        EnvironmentSettings.inStreamingMode(),
                        "failover",
                        s3,
                        "execution.checkpointing.interval",
                        "200 ms",
                        "restart-strategy.type",
                        "fixed-delay",
                        "restart-strategy.fixed-delay.attempts",
                        "3",
                        "restart-strategy.fixed-delay.delay",
                        "200 ms");
        write.createTemporarySystemFunction("fail_at", StreamingFunctions.FailAt.class);
        write.executeSql(
                "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + rows
                        + "', 'rows-per-second' = '300')");
        write.executeSql(
                        "INSERT INTO db.once SELECT fail_at(CAST(id AS BIGINT)),"
                                + " 'n' || CAST(id AS STRING) FROM gen")
                .await();

        assertThat(StreamingFunctions.FailAt.failed()).as("the job failed over once").isTrue();
        assertThat(
                        query(
                                batch,
                                "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM db.once"))
                .as("every row once, none lost and none twice")
                .containsExactly("+I[" + rows + ", " + rows + ", 1, " + rows + "]");
    }

    /**
     * A Java program running Flink embedded: the S3 keys are only in the {@code Configuration} it
     * gives Flink's file systems ({@link #start}) and its table environment; no config.yaml and no
     * catalog or table option names them. The catalog's commits (in this process) and the sink's
     * (in the cluster's tasks) both reach the store, and so does a {@code 'connector' = 'tarn'}
     * table outside a Tarn catalog.
     */
    @Test
    void anEmbeddedProgramGivesTheS3KeysInItsFlinkConfigurationOnly() throws Exception {
        Configuration config = Configuration.fromMap(FlinkS3Plugin.settings(server));
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inBatchMode()
                                .withConfiguration(config)
                                .build());
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = 's3://lake/embedded')");
        env.executeSql("CREATE TABLE lake.`default`.t (id INT, name STRING)");
        env.executeSql("INSERT INTO lake.`default`.t VALUES (1, 'a'), (2, 'b')").await();
        assertThat(query(env, "SELECT * FROM lake.`default`.t"))
                .containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");

        env.executeSql(
                "CREATE TEMPORARY TABLE loose (id INT, name STRING) WITH ('connector' = 'tarn',"
                        + " 'path' = 's3://lake/embedded-loose/t')");
        env.executeSql("INSERT INTO loose VALUES (3, 'c')").await();
        assertThat(query(env, "SELECT * FROM loose")).containsExactly("+I[3, c]");
    }

    @Test
    void aCatalogWithAWrongEndpointFailsNamingBucketKeyAndCause() throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Map<String, String> wrong = new java.util.HashMap<>(FlinkS3Plugin.settings(server));
        wrong.put("s3.endpoint", "http://127.0.0.1:" + closed);
        assertThatThrownBy(() -> session(EnvironmentSettings.inBatchMode(), "wrong", wrong))
                .hasStackTraceContaining(
                        "Cannot open catalog lake: warehouse s3://lake/wrong cannot be created or"
                                + " written")
                .hasStackTraceContaining(
                        "Cannot create s3://lake/wrong/.tarn-conditional-put-probe-")
                .hasStackTraceContaining(
                        "cannot reach the endpoint http://127.0.0.1:"
                                + closed
                                + ": ConnectException");
    }
}
