package dev.tarn.connector.source.enumerator;

import dev.tarn.format.read.ScanStats;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * What an enumerator's last scan planned (README, "Metrics"), in Apache Paimon's names: how long it
 * took, the manifests it read, the files its filter skipped and the files it planned. Shared by the
 * enumerator of a batch read, whose one scan plans its snapshot, and by that of a streaming read,
 * whose start and each discovery that finds snapshots are scans. Set once per scan from the counts
 * the format's planner keeps ({@link ScanStats}); the gauges read the last one.
 */
final class ScanMetrics {

    /** The last scan's stats with its duration; written by the planning thread. */
    private volatile ScanStats last = ScanStats.NONE;

    ScanMetrics(MetricGroup group) {
        group.gauge("lastScanDuration", (Gauge<Long>) () -> last.durationMillis());
        group.gauge("lastScannedManifests", (Gauge<Long>) () -> last.manifests());
        group.gauge("lastScanSkippedTableFiles", (Gauge<Long>) () -> last.skippedFiles());
        group.gauge("lastScanResultedTableFiles", (Gauge<Long>) () -> last.resultedFiles());
    }

    /** A scan planned what {@code stats} counts, in {@code millis}. */
    void scanned(long millis, ScanStats stats) {
        last =
                new ScanStats(
                        millis, stats.manifests(), stats.skippedFiles(), stats.resultedFiles());
    }
}
