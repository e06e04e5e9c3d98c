package dev.tarn.connector.sink;

import dev.tarn.format.write.TableWrite;
import dev.tarn.format.write.WriteStats;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * A writer subtask's metrics (README, "Metrics"): its buckets' write buffer, level-0 backlog,
 * compactions and lookup indexes, as the format's {@link WriteStats} took them at the last
 * checkpoint. Apache Paimon's names where the concept is the same; the gauges read a value the
 * writer sets once per checkpoint, so they cost nothing per row.
 */
final class WriterMetrics {

    private WriterMetrics() {}

    /** Registers the gauges of {@code write} with {@code group}. */
    static void register(MetricGroup group, TableWrite write) {
        group.gauge(
                "usedWriteBufferSizeByte", (Gauge<Long>) () -> stats(write).buffer().usedBytes());
        group.gauge(
                "totalWriteBufferSizeByte", (Gauge<Long>) () -> stats(write).buffer().limitBytes());
        group.gauge("writeBufferFlushes", (Gauge<Long>) () -> stats(write).buffer().flushes());
        group.gauge("writeBufferSpills", (Gauge<Long>) () -> stats(write).buffer().spills());
        group.gauge("maxLevel0FileCount", (Gauge<Long>) () -> stats(write).level0().maxFiles());
        group.gauge("avgLevel0FileCount", (Gauge<Double>) () -> stats(write).level0().avgFiles());
        group.gauge(
                "compactionsRunning", (Gauge<Integer>) () -> stats(write).compaction().running());
        group.gauge(
                "lastCompactionDuration",
                (Gauge<Long>) () -> stats(write).compaction().lastMillis());
        group.gauge("lookupIndexBuckets", (Gauge<Integer>) () -> stats(write).lookup().buckets());
        group.gauge(
                "lookupIndexMemoryBytes", (Gauge<Long>) () -> stats(write).lookup().memoryBytes());
    }

    private static WriteStats stats(TableWrite write) {
        return write.stats();
    }
}
