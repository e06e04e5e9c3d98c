package dev.tarn.connector.sink;

import dev.tarn.format.commit.CommitStats;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireResult;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The committer's metrics (README, "Metrics"): what its last commit published, in Apache Paimon's
 * names, a histogram of commit durations, and the expiration runs after commits. Updated once per
 * commit or expiration run; the gauges read the last values, so registering them costs nothing per
 * row. The commit's gauges change only on a commit that published a snapshot, so a checkpoint
 * without rows does not wipe out the last commit's counts.
 */
final class CommitterMetrics {

    /** The commit durations the histogram keeps: at 1 s checkpoints, the last 100 seconds. */
    static final int DURATION_WINDOW = 100;

    /** The last published commit's stats; written by the committer, read by the reporter. */
    private volatile CommitStats last = CommitStats.NONE;

    private volatile long lastSnapshotId = -1;
    private final Histogram durations = new DescriptiveStatisticsHistogram(DURATION_WINDOW);

    // Expiration runs on its own thread: thread-safe counters.
    private final Counter expirationRuns = new ThreadSafeSimpleCounter();
    private final Counter expiredSnapshots = new ThreadSafeSimpleCounter();
    private final Counter expiredFiles = new ThreadSafeSimpleCounter();

    CommitterMetrics(MetricGroup group) {
        group.gauge("lastCommitDuration", (Gauge<Long>) () -> last.durationMillis());
        group.histogram("commitDuration", durations);
        group.gauge("lastCommitAttempts", (Gauge<Integer>) () -> last.attempts());
        group.gauge("lastTableFilesAdded", (Gauge<Long>) () -> last.files().added());
        group.gauge("lastTableFilesDeleted", (Gauge<Long>) () -> last.files().deleted());
        group.gauge("lastTableFilesAppended", (Gauge<Long>) () -> last.files().appended());
        group.gauge("lastDeltaRecordsAppended", (Gauge<Long>) () -> last.records().deltaAppended());
        group.gauge(
                "lastChangelogRecordsAppended",
                (Gauge<Long>) () -> last.records().changelogAppended());
        group.gauge("lastPartitionsWritten", (Gauge<Integer>) () -> last.partitionsWritten());
        group.gauge("lastBucketsWritten", (Gauge<Integer>) () -> last.bucketsWritten());
        group.gauge("lastCommittedSnapshotId", (Gauge<Long>) () -> lastSnapshotId);
        group.counter("expirationRuns", expirationRuns);
        group.counter("expiredSnapshots", expiredSnapshots);
        group.counter("expiredFiles", expiredFiles);
    }

    /** After a commit call: records it if it published a snapshot. */
    void committed(TableCommit.Result result) {
        if (result.alreadyCommitted() || result.snapshotId().isEmpty()) {
            return;
        }
        last = result.stats();
        lastSnapshotId = result.snapshotId().getAsLong();
        durations.update(result.stats().durationMillis());
    }

    /** After an expiration run (on the expiration thread). */
    void expired(ExpireResult result) {
        expirationRuns.inc();
        expiredSnapshots.inc(result.snapshots());
        expiredFiles.inc((long) result.dataFiles() + result.indexFiles() + result.metadataFiles());
    }
}
