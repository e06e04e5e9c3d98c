package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
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
}
