package dev.tarn.assembly.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.assembly.cluster.JobWatch.Failures;
import dev.tarn.testing.FlinkS3Plugin;
import dev.tarn.testing.S3MockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tarn as users run it: the shaded jar in the lib/ of a standalone Flink cluster of separate JVMs
 * (a JobManager and a TaskManager on loopback), driven by Flink's SQL client. The SQL examples
 * return their checked-in rows there; a streaming upsert survives {@code kill -9} of its
 * TaskManager and a new one taking over, leaving every key exactly once with its last value; a
 * streaming read follows the table while the upsert writes it. The upsert's table is on S3 (Adobe
 * S3Mock on loopback, reached through Flink's S3 plugin in the cluster's {@code plugins/},
 * snapshots published by conditional puts); the examples use a local directory. Figures go to the
 * output with the prefix {@code [cluster]}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkClusterITCase {

    /** Rows of the upsert stream: ids 1..ROWS, key {@code id % KEYS}, value the id. */
    static final long ROWS = 12_000;

    static final int KEYS = 200;

    /** About 40 s of input: long enough to kill, replace and recover, then follow the table. */
    static final int ROWS_PER_SECOND = 300;

    @TempDir static Path work;

    /** The S3-compatible server of the upsert's warehouse, {@code s3://analytics/lake}. */
    static S3MockServer s3;

    static LocalFlinkCluster cluster;
    static SqlClient sql;

    /** The upsert's tables: on S3, through Flink's S3 plugin in the cluster's plugins/. */
    static Warehouse warehouse;

    /** The SQL examples' tables: a local directory, which every process of the cluster sees. */
    static Warehouse examplesWarehouse;

    /** Prints the cluster's logs when a test fails. */
    @RegisterExtension
    static final TestWatcher LOGS_ON_FAILURE =
            new TestWatcher() {
                @Override
                public void testFailed(ExtensionContext context, Throwable cause) {
                    if (cluster != null) {
                        System.out.println(
                                "[cluster] logs after the failure of "
                                        + context.getDisplayName()
                                        + ":\n"
                                        + cluster.logTails(60));
                    }
                }
            };

    @BeforeAll
    static void startCluster() throws Exception {
        FlinkRuntime runtime =
                FlinkRuntime.fromClassPathFiles(
                        property("tarn.cluster.flink-lib"),
                        property("tarn.cluster.flink-lib-shared"),
                        property("tarn.cluster.flink-sql-client"),
                        property("tarn.jar"));
        long bytes = Files.size(runtime.tarnJar());
        System.out.printf(
                "[cluster] shaded jar %.1f MB (%d bytes): %s%n",
                bytes / 1e6, bytes, runtime.tarnJar().getFileName());
        Path logDir = property("tarn.cluster.logs");
        Files.createDirectories(logDir);
        try (var old = Files.list(logDir)) {
            for (Path f : old.toList()) {
                Files.delete(f);
            }
        }
        System.out.println("[cluster] logs in " + logDir);
        examplesWarehouse = Warehouse.local(Files.createDirectories(work.resolve("warehouse")));
        s3 = S3MockServer.start("analytics");
        // Flink's S3 file system as a distribution installs it: plugins/s3-fs-hadoop/<its jar>.
        Path plugins = work.resolve("flink-home").resolve("plugins");
        Path s3Plugin = Files.createDirectories(plugins.resolve("s3-fs-hadoop"));
        Files.copy(FlinkS3Plugin.jar(), s3Plugin.resolve(FlinkS3Plugin.jar().getFileName()));
        warehouse = Warehouse.s3("analytics", "lake", FlinkS3Plugin.settings(s3), plugins);
        System.out.println(
                "[cluster] warehouse " + warehouse.uri() + " on S3Mock at " + s3.endpoint());
        cluster = LocalFlinkCluster.start(runtime, work, logDir, warehouse);
        sql = new SqlClient(cluster, work.resolve("sql"));
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (cluster != null) {
                cluster.close();
            }
            JavaProcess.killAll();
        } finally {
            if (s3 != null) {
                s3.close();
            }
        }
    }

    @Test
    @Order(1)
    void sqlExamplesReturnTheirRowsOnTheCluster() throws Exception {
        ExampleScripts examples =
                ExampleScripts.load(
                        property("tarn.cluster.examples"),
                        property("tarn.cluster.examples-expected"),
                        examplesWarehouse);
        List<String> statements =
                new ArrayList<>(
                        List.of(
                                "SET 'execution.runtime-mode' = 'batch'",
                                "SET 'table.dml-sync' = 'true'"));
        statements.addAll(examples.statements());
        long start = System.nanoTime();
        String output = sql.run("examples", statements, Duration.ofMinutes(3));
        System.out.printf(
                "[cluster] %d example scripts (%d statements) in %.1f s%n",
                examples.names().size(),
                examples.statements().size(),
                (System.nanoTime() - start) / 1e9);

        List<List<String>> results = TableauOutput.batchResults(output);
        List<String> withResults =
                examples.statements().stream().filter(ExampleScripts::printsTable).toList();
        assertThat(results)
                .as("results printed by the SQL client for %s\n%s", withResults, output)
                .hasSize(withResults.size());
        List<List<String>> queryResults = new ArrayList<>();
        for (int i = 0; i < withResults.size(); i++) {
            if (ExampleScripts.isQuery(withResults.get(i))) {
                queryResults.add(results.get(i));
            }
        }
        assertThat(queryResults)
                .as("rows of the example queries on the cluster, against expected/*.out")
                .isEqualTo(examples.expected());
        icebergMetadataOfTheExampleReadsWithIcebergsOwnLibrary();
    }

    /**
     * The Iceberg metadata that the shaded jar's relocated Iceberg and Avro wrote for the example
     * table {@code shared.events}, read by Iceberg's own library (not relocated, on this test's
     * class path): the JSON metadata the version hint names, and the Avro manifests of its current
     * snapshot, whose files hold the table's four rows.
     */
    private static void icebergMetadataOfTheExampleReadsWithIcebergsOwnLibrary() throws Exception {
        // Each script has a warehouse of its own (ExampleScripts): the eleventh's.
        Path location = Path.of(java.net.URI.create(examplesWarehouse.uri() + "/examples-11"));
        Path metadataDir = location.resolve("shared.db").resolve("events").resolve("metadata");
        String hint = Files.readString(metadataDir.resolve("version-hint.text")).trim();
        org.apache.iceberg.io.FileIO io = new LocalIcebergFiles();
        org.apache.iceberg.TableMetadata metadata =
                org.apache.iceberg.TableMetadataParser.read(
                        io, metadataDir.resolve("v" + hint + ".metadata.json").toUri().toString());
        assertThat(hint).as("version hint: Tarn's last snapshot").isEqualTo("3");
        assertThat(metadata.currentSnapshot().snapshotId()).isEqualTo(3L);
        assertThat(metadata.schema().columns())
                .extracting(org.apache.iceberg.types.Types.NestedField::name)
                .containsExactly("id", "action", "dt");
        long rows = 0;
        for (org.apache.iceberg.ManifestFile manifest :
                metadata.currentSnapshot().dataManifests(io)) {
            try (var files =
                    org.apache.iceberg.ManifestFiles.read(manifest, io, metadata.specsById())) {
                for (org.apache.iceberg.DataFile file : files) {
                    assertThat(Path.of(java.net.URI.create(file.location()))).exists();
                    rows += file.recordCount();
                }
            }
        }
        assertThat(rows).as("rows in the Iceberg manifests of snapshot 3").isEqualTo(4);
    }

    /**
     * Local files through Iceberg's own classes (Tarn's Iceberg file I/O on this class path is the
     * shaded jar's, bound to the relocated Iceberg).
     */
    private static final class LocalIcebergFiles implements org.apache.iceberg.io.FileIO {
        @Override
        public org.apache.iceberg.io.InputFile newInputFile(String location) {
            return org.apache.iceberg.Files.localInput(
                    Path.of(java.net.URI.create(location)).toFile());
        }

        @Override
        public org.apache.iceberg.io.OutputFile newOutputFile(String location) {
            throw new UnsupportedOperationException("read-only: " + location);
        }

        @Override
        public void deleteFile(String location) {
            throw new UnsupportedOperationException("read-only: " + location);
        }
    }

    @Test
    @Order(2)
    void streamingUpsertSurvivesTaskManagerKillAndIsFollowed() throws Exception {
        SnapshotObjects snapshots = warehouse.snapshots("db", "upserts");
        sql.run(
                "upsert-submit",
                List.of(
                        "CREATE CATALOG lake WITH " + warehouse.catalogWith(),
                        "CREATE DATABASE IF NOT EXISTS lake.db",
                        "CREATE TABLE lake.db.upserts (k INT, v BIGINT, s STRING,"
                                + " PRIMARY KEY (k) NOT ENFORCED)"
                                + " WITH ('bucket' = '2', 'write-buffer-size' = '16mb')",
                        "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen',"
                                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                                + " 'fields.id.end' = '"
                                + ROWS
                                + "',"
                                + " 'rows-per-second' = '"
                                + ROWS_PER_SECOND
                                + "')",
                        "SET 'execution.runtime-mode' = 'streaming'",
                        "SET 'execution.checkpointing.interval' = '1s'",
                        "SET 'pipeline.name' = 'cluster-upserts'",
                        "INSERT INTO lake.db.upserts SELECT CAST(MOD(id, "
                                + KEYS
                                + ") AS INT),"
                                + " id, CONCAT('v', CAST(id AS STRING)) FROM seq"),
                Duration.ofMinutes(2));
        JobWatch upserts = new JobWatch(cluster, "cluster-upserts");
        upserts.await(
                "two snapshots before the kill",
                () -> snapshots.latestId() >= 2,
                Duration.ofSeconds(90),
                JobWatch.POLL,
                Failures.FAIL_ON_ANY);

        // kill -9 of the only TaskManager mid-stream, right after a commit, so that the restored
        // job retries the committables of that checkpoint, which it must skip; then a new one.
        long seen = snapshots.latestId();
        upserts.await(
                "a snapshot after " + seen,
                () -> snapshots.latestId() > seen,
                Duration.ofSeconds(30),
                Duration.ofMillis(10),
                Failures.FAIL_ON_ANY);
        cluster.taskManager().kill();
        long killedAt = System.currentTimeMillis();
        long lastBefore = snapshots.latestId();
        SnapshotObjects.Commit lastCommit = snapshots.commits(lastBefore).get((int) lastBefore - 1);
        cluster.startTaskManager();
        upserts.await(
                "a snapshot after " + lastBefore + " from the restarted job",
                () -> snapshots.latestId() > lastBefore,
                Duration.ofSeconds(120),
                Duration.ofMillis(20),
                Failures.FAIL_ON_TERMINAL);
        long recovered = snapshots.commitTimeMillis(lastBefore + 1);
        System.out.printf(
                "[cluster] recovery %.1f s (TaskManager killed after snapshot %d, a %s commit of"
                        + " checkpoint %d; the job restored from checkpoint %d and published"
                        + " snapshot %d)%n",
                (recovered - killedAt) / 1e3,
                lastBefore,
                lastCommit.kind(),
                lastCommit.identifier(),
                cluster.rest().restoredCheckpoint(upserts.id()),
                lastBefore + 1);
        assertThat(upserts.job().orElseThrow().state()).isEqualTo("RUNNING");

        // A streaming read following the table while the upsert still writes it.
        JavaProcess follower =
                sql.start(
                        "follow",
                        List.of(
                                "CREATE CATALOG lake WITH " + warehouse.catalogWith(),
                                "SET 'execution.runtime-mode' = 'streaming'",
                                "SET 'pipeline.name' = 'cluster-follow'",
                                "SELECT k, v FROM lake.db.upserts"));
        JobWatch follow = new JobWatch(cluster, "cluster-follow");
        try {
            follow.awaitState("RUNNING", Duration.ofSeconds(90), Failures.FAIL_ON_ANY);
            long followedFrom = snapshots.latestId();
            upserts.awaitState("FINISHED", Duration.ofSeconds(120), Failures.FAIL_ON_TERMINAL);
            long last = snapshots.latestId();
            assertThat(last)
                    .as(
                            "snapshots published after the streaming read started (at %d)",
                            followedFrom)
                    .isGreaterThan(followedFrom);
            follow.await(
                    "the streaming read to reach the last value of every key",
                    () -> latestRows(follower.output()).equals(expectedRows(false)),
                    Duration.ofSeconds(60),
                    JobWatch.POLL,
                    Failures.FAIL_ON_ANY);
        } finally {
            follower.kill();
            if (follow.job().isPresent()) {
                cluster.rest().cancel(follow.id());
            }
        }

        // A bounded read of the result: every key exactly once, with its last value.
        String output =
                sql.run(
                        "upsert-check",
                        List.of(
                                "CREATE CATALOG lake WITH " + warehouse.catalogWith(),
                                "SET 'execution.runtime-mode' = 'batch'",
                                "SELECT k, v, s FROM lake.db.upserts ORDER BY k"),
                        Duration.ofMinutes(2));
        List<List<String>> results = TableauOutput.batchResults(output);
        assertThat(results).as("results of the check\n%s", output).hasSize(1);
        List<String> expected = new ArrayList<>();
        expectedRows(true).forEach((k, row) -> expected.add("+I[" + k + ", " + row + "]"));
        assertThat(results.get(0))
                .as("every key exactly once with its last value after the TaskManager kill")
                .containsExactlyElementsOf(expected);

        // Each checkpoint published once, the one restored from included (its commit retried).
        long last = snapshots.latestId();
        Map<String, Long> published = new TreeMap<>();
        for (SnapshotObjects.Commit c : snapshots.commits(last)) {
            published.merge(c.user() + " " + c.kind() + " " + c.identifier(), 1L, Long::sum);
        }
        published.values().removeIf(n -> n == 1);
        assertThat(published)
                .as(
                        "commits (user, kind, checkpoint) published more than once in snapshots 1-%d",
                        last)
                .isEmpty();
    }

    /** Key to {@code v} (and {@code , s}): the last id of each key, {@code id % KEYS == k}. */
    static Map<Integer, String> expectedRows(boolean withS) {
        Map<Integer, String> rows = new TreeMap<>();
        for (int k = 0; k < KEYS; k++) {
            long v = ROWS - Math.floorMod(ROWS - k, KEYS);
            rows.put(k, withS ? v + ", v" + v : Long.toString(v));
        }
        return rows;
    }

    /** The rows a changelog leaves: per key the last {@code +I}/{@code +U}, unless deleted. */
    static Map<Integer, String> latestRows(String output) {
        Map<Integer, String> rows = new TreeMap<>();
        for (String row : TableauOutput.changelogRows(output)) {
            String[] cells = row.substring(3, row.length() - 1).split(", ");
            int k = Integer.parseInt(cells[0]);
            if (row.startsWith("+")) {
                rows.put(k, cells[1]);
            } else {
                rows.remove(k);
            }
        }
        return rows;
    }

    private static Path property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(
                    "System property " + name + " is not set: run the test through Maven (verify)");
        }
        return Path.of(value);
    }
}
