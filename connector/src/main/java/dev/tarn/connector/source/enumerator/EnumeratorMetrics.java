package dev.tarn.connector.source.enumerator;

import dev.tarn.format.read.ScanStats;
import dev.tarn.format.snapshot.Snapshot;
import java.util.TreeMap;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * A streaming read's metrics on the enumerator (README, "Metrics"): how many snapshots the read is
 * behind the newest one it has seen, how long the oldest of them has waited, the splits not yet
 * assigned (Flink's standard {@code unassignedSplits}), and what the last scan planned ({@link
 * ScanMetrics}: the start, then each discovery that found snapshots). Updated per discovery and per
 * reader report, never per row; the gauges read volatile values. A snapshot counts as read once
 * every split of it is finished, the position a consumer id records.
 */
final class EnumeratorMetrics {

    // Worker thread (discovery) writes these.
    private volatile long latestSeen;
    private final ScanMetrics scans;

    // Coordinator thread writes these.
    private volatile long firstUnread;
    private volatile long oldestUnreadCommitMillis = -1;
    private volatile int pendingSplits;

    /** Coordinator thread: the commit time of each planned snapshot not yet read. */
    private final TreeMap<Long, Long> commitTimes = new TreeMap<>();

    /**
     * @param nextSnapshotId the first snapshot the read has not planned yet
     */
    EnumeratorMetrics(SplitEnumeratorMetricGroup group, long nextSnapshotId) {
        this.latestSeen = nextSnapshotId - 1;
        this.firstUnread = nextSnapshotId;
        group.gauge("snapshotLag", (Gauge<Long>) this::snapshotLag);
        group.gauge("snapshotLagMillis", (Gauge<Long>) this::snapshotLagMillis);
        group.setUnassignedSplitsGauge((Gauge<Long>) () -> (long) pendingSplits);
        this.scans = new ScanMetrics(group);
    }

    /** Snapshots published, as far as the read has seen, whose splits are not all finished. */
    long snapshotLag() {
        return Math.max(0, latestSeen - firstUnread + 1);
    }

    /** How long ago the oldest snapshot not yet read was committed; 0 if the read caught up. */
    long snapshotLagMillis() {
        long oldest = oldestUnreadCommitMillis;
        return oldest < 0 ? 0 : Math.max(0, System.currentTimeMillis() - oldest);
    }

    /** The start was planned as {@code stats} counts. */
    void started(ScanStats stats) {
        scans.scanned(stats.durationMillis(), stats);
    }

    /**
     * Worker thread: a discovery that found snapshots took {@code millis} and planned what {@code
     * stats} counts; {@code latest} seen.
     */
    void scanned(long millis, ScanStats stats, long latest) {
        scans.scanned(millis, stats);
        latestSeen = Math.max(latestSeen, latest);
    }

    /** Coordinator thread: {@code snapshot}'s splits were planned. */
    void planned(Snapshot snapshot) {
        commitTimes.put(snapshot.id(), snapshot.commit().timeMillis());
    }

    /**
     * Coordinator thread: the read's position changed.
     *
     * @param unread the oldest snapshot with a split not finished (or the next to plan)
     * @param pending splits planned and not assigned yet
     */
    void position(long unread, int pending) {
        commitTimes.headMap(unread).clear();
        Long committed = commitTimes.get(unread);
        firstUnread = unread;
        oldestUnreadCommitMillis = committed == null ? -1 : committed;
        pendingSplits = pending;
    }
}
