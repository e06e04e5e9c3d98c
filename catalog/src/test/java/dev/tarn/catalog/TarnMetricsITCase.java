package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics a Tarn job reports to Flink's metric system (README, "Metrics"), read through an
 * in-memory reporter of the cluster and checked against what the job did, as the table's system
 * tables show it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TarnMetricsITCase {

    /** Keeps the metrics of finished jobs: a batch job's committer reports once, at its end. */
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster(METRICS);

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void open() throws Exception {
        sql = LakeSql.open(lake);
    }

    /** Runs {@code insert} to its end and returns its job's id. */
    private JobID run(String insert) throws Exception {
        List<JobID> jobs = new ArrayList<>();
        sql.query(insert, jobs);
        return jobs.get(0);
    }

    /** The values of the gauges {@code name} of {@code job}, one per subtask that has one. */
    private static List<Long> gauges(JobID job, String name) {
        List<Long> values = new ArrayList<>();
        for (Metric m : METRICS.findMetrics(job, name).values()) {
            values.add(((Number) ((Gauge<?>) m).getValue()).longValue());
        }
        return values;
    }

    /** The value of the one gauge {@code name} of {@code job}. */
    private static long gauge(JobID job, String name) {
        List<Long> values = gauges(job, name);
        assertThat(values).as(name).hasSize(1);
        return values.get(0);
    }

    private long single(String query) throws Exception {
        String row = sql.query(query).get(0);
        return Long.parseLong(row.substring("+I[".length(), row.length() - 1));
    }

    @Test
    void theCommitterReportsWhatItsLastCommitPublished() throws Exception {
        sql.exec(
                "CREATE TABLE db.t (id INT, name STRING, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2', 'bucket-key' = 'id')");
        JobID first =
                run(
                        "INSERT INTO db.t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y'),"
                                + " (4, 'd', 'z'), (5, 'e', 'z')");
        long files = single("SELECT COUNT(*) FROM db.`t$files`");
        long buckets = single("SELECT COUNT(*) FROM db.`t$buckets`");
        assertThat(gauge(first, "lastCommittedSnapshotId")).isEqualTo(1);
        assertThat(gauge(first, "lastTableFilesAppended")).isEqualTo(files);
        assertThat(gauge(first, "lastTableFilesAdded")).isEqualTo(files);
        assertThat(gauge(first, "lastTableFilesDeleted")).isZero();
        assertThat(gauge(first, "lastDeltaRecordsAppended")).isEqualTo(5);
        assertThat(gauge(first, "lastChangelogRecordsAppended")).isZero();
        assertThat(gauge(first, "lastPartitionsWritten")).isEqualTo(3);
        assertThat(gauge(first, "lastBucketsWritten")).isEqualTo(buckets);
        assertThat(gauge(first, "lastCommitAttempts")).isEqualTo(1);
        assertThat(gauge(first, "lastCommitDuration")).isNotNegative();
        Histogram durations =
                (Histogram) METRICS.findMetrics(first, "commitDuration").values().iterator().next();
        assertThat(durations.getCount()).isEqualTo(1);

        JobID second = run("INSERT INTO db.t VALUES (6, 'f', 'y')");
        assertThat(gauge(second, "lastCommittedSnapshotId")).isEqualTo(2);
        assertThat(gauge(second, "lastTableFilesAppended")).isEqualTo(1);
        assertThat(gauge(second, "lastDeltaRecordsAppended")).isEqualTo(1);
        assertThat(gauge(second, "lastPartitionsWritten")).isEqualTo(1);
        assertThat(gauge(second, "lastBucketsWritten")).isEqualTo(1);
    }

    /**
     * Waits up to a minute until the gauges {@code name} of {@code job} pass {@code test} (an
     * enumerator's are reported twice, under the job manager's operator and its coordinator), and
     * returns the first value then.
     */
    private static long awaitGauge(JobID job, String name, LongPredicate test)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<Long> values = List.of();
        while (System.nanoTime() < deadline) {
            values = gauges(job, name);
            if (!values.isEmpty() && values.stream().allMatch(test::test)) {
                return values.get(0);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("Gauge " + name + " never got there; last values " + values);
    }

    @Test
    void aWriteOnlyWritersLevel0BacklogGrowsUntilACompactionJobCompactsIt() throws Exception {
        sql.exec(
                "CREATE TABLE db.k (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '1', 'write-only' = 'true')");
        TableEnvironment streaming =
                LakeSql.streaming(
                        lake,
                        "execution.checkpointing.interval",
                        "300 ms",
                        "parallelism.default",
                        "1");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT, v STRING) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '200', 'fields.id.min' = '1',"
                        + " 'fields.id.max' = '50', 'fields.v.length' = '4')");
        TableResult insert = streaming.executeSql("INSERT INTO db.k SELECT id, v FROM gen");
        JobID job = insert.getJobClient().orElseThrow().getJobID();
        try {
            // Without compaction every checkpoint adds a level-0 file: the backlog only grows.
            long backlog = awaitGauge(job, "maxLevel0FileCount", n -> n >= 4);
            assertThat(gauge(job, "writeBufferFlushes")).isGreaterThanOrEqualTo(backlog);
            assertThat(gauge(job, "totalWriteBufferSizeByte")).isPositive();
            long committed = awaitGauge(job, "lastCommittedSnapshotId", id -> id >= 3);
            assertThat(gauge(job, "lastDeltaRecordsAppended")).isPositive();

            sql.exec("CALL lake.sys.compact('db.k')");

            // The writer follows the table: the compaction job's snapshot empties its level 0.
            long after = awaitGauge(job, "maxLevel0FileCount", n -> n < backlog);
            assertThat(after).isLessThan(backlog);
            assertThat(awaitGauge(job, "lastCommittedSnapshotId", id -> id > committed + 1))
                    .isGreaterThan(committed);
        } finally {
            Follower.cancelAndAwait(insert);
        }
    }

    @Test
    void aStreamingReadReportsItsSnapshotLagThroughFlink() throws Exception {
        sql.exec("CREATE TABLE db.s (id INT, name STRING)");
        sql.insertIds("db.s", 1, 3);
        sql.insertIds("db.s", 4, 5);
        TableEnvironment streaming = LakeSql.streaming(lake, "parallelism.default", "1");
        TableResult read = streaming.executeSql("SELECT id FROM db.s");
        JobID job = read.getJobClient().orElseThrow().getJobID();
        try (var rows = read.collect()) {
            for (int i = 0; i < 5; i++) {
                rows.next();
            }
            // Both snapshots read: nothing behind, nothing waiting for a reader.
            assertThat(awaitGauge(job, "snapshotLag", n -> n == 0)).isZero();
            assertThat(gauges(job, "unassignedSplits")).containsOnly(0L);
            assertThat(gauges(job, "snapshotLagMillis")).containsOnly(0L);
            sql.insertIds("db.s", 6, 6);
            rows.next();
            assertThat(awaitGauge(job, "lastScanDuration", n -> n >= 0)).isNotNegative();
            assertThat(awaitGauge(job, "snapshotLag", n -> n == 0)).isZero();
        }
    }

    /** The commit time of snapshot {@code id} of table {@code db.<name>}. */
    private long committed(String name, long id) {
        Table table =
                Table.load(
                        FileIO.flinkFileSystems(),
                        new org.apache.flink.core.fs.Path(lake.resolve("db.db/" + name).toUri()),
                        "db." + name);
        return table.metadata().snapshot(id).commit().timeMillis();
    }

    @Test
    void aBatchScanReportsTheManifestsItReadAndTheFilesItsFilterSkipped() throws Exception {
        sql.exec("CREATE TABLE db.p (id INT, dt STRING) PARTITIONED BY (dt)");
        sql.exec("INSERT INTO db.p VALUES (1, 'a'), (2, 'b')");
        sql.exec("INSERT INTO db.p VALUES (3, 'a'), (4, 'c')");
        sql.exec("INSERT INTO db.p VALUES (5, 'b')");
        long manifests = single("SELECT COUNT(*) FROM db.`p$manifests`");
        long inA = single("SELECT COUNT(*) FROM db.`p$files` WHERE `partition` = 'dt=a'");
        long others = single("SELECT COUNT(*) FROM db.`p$files` WHERE `partition` <> 'dt=a'");
        assertThat(inA).isPositive();
        assertThat(others).isPositive();

        List<JobID> jobs = new ArrayList<>();
        assertThat(sql.query("SELECT id FROM db.p WHERE dt = 'a'", jobs))
                .containsExactlyInAnyOrder("+I[1]", "+I[3]");
        JobID read = jobs.get(0);

        // Partition pruning skips the files of the other partitions, after reading every manifest:
        // manifest lists record no partition bounds to skip a manifest by.
        assertThat(gauges(read, "lastScannedManifests")).isNotEmpty().containsOnly(manifests);
        assertThat(gauges(read, "lastScanSkippedTableFiles")).containsOnly(others);
        assertThat(gauges(read, "lastScanResultedTableFiles")).containsOnly(inA);
        assertThat(gauges(read, "lastScanDuration")).allMatch(millis -> millis >= 0);
    }

    @Test
    void aStreamingReadReportsItsEventTimeLagsAndWhatEachDiscoverySkipped() throws Exception {
        sql.exec("CREATE TABLE db.e (id INT, dt STRING) PARTITIONED BY (dt)");
        sql.exec("INSERT INTO db.e VALUES (1, 'a'), (2, 'a')");
        long first = committed("e", 1);
        // The read starts a second after the commit: its full phase lags at least that much.
        Thread.sleep(1000);
        long submitted = System.currentTimeMillis();
        TableEnvironment streaming = LakeSql.streaming(lake, "parallelism.default", "1");
        TableResult read =
                streaming.executeSql(
                        "SELECT id FROM db.e /*+ OPTIONS('continuous.discovery-interval' ="
                                + " '100 ms') */ WHERE dt = 'a'");
        JobID job = read.getJobClient().orElseThrow().getJobID();
        try (var rows = read.collect()) {
            rows.next();
            rows.next();
            long fetched = gauge(job, "currentFetchEventTimeLag");
            long emitted = gauge(job, "currentEmitEventTimeLag");
            long now = System.currentTimeMillis();
            // Both measure from snapshot 1's commit: the split was opened, and its rows emitted,
            // after the job was submitted.
            assertThat(fetched).isBetween(submitted - first, now - first);
            assertThat(emitted).isBetween(submitted - first, now - first);
            assertThat(gauges(job, "lastScanResultedTableFiles"))
                    .containsOnly(single("SELECT COUNT(*) FROM db.`e$files`"));

            // A snapshot of another partition: planned from its delta manifest, and skipped.
            sql.exec("INSERT INTO db.e VALUES (3, 'b')");
            long inB = single("SELECT COUNT(*) FROM db.`e$files` WHERE `partition` = 'dt=b'");
            assertThat(awaitGauge(job, "lastScanSkippedTableFiles", n -> n == inB)).isEqualTo(inB);
            assertThat(gauges(job, "lastScanResultedTableFiles")).containsOnly(0L);
            assertThat(gauges(job, "lastScannedManifests")).containsOnly(1L);

            // A snapshot the read follows closely: the lags measure from its commit.
            sql.exec("INSERT INTO db.e VALUES (4, 'a')");
            long third = committed("e", 3);
            assertThat(rows.next().getField(0)).isEqualTo(4);
            long caughtUp = gauge(job, "currentFetchEventTimeLag");
            long lastEmitted = gauge(job, "currentEmitEventTimeLag");
            now = System.currentTimeMillis();
            assertThat(caughtUp).isBetween(0L, now - third);
            assertThat(lastEmitted).isBetween(0L, now - third);
            assertThat(gauges(job, "lastScanResultedTableFiles")).containsOnly(1L);
            assertThat(gauges(job, "lastScanSkippedTableFiles")).containsOnly(0L);
        }
    }
}
