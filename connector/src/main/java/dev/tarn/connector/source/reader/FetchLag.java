package dev.tarn.connector.source.reader;

import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.MetricNames;

/**
 * Flink's standard {@code currentFetchEventTimeLag} of a source subtask (README, "Metrics"), with
 * the meaning Apache Paimon gives it: when a lane opens a split, the time since the split's event
 * time (the commit of its snapshot); the value stays until a lane opens the next split. -1 before
 * the first split, and after a split without an event time (restored from an older checkpoint). Set
 * once per split on the fetcher threads; the gauge reads a volatile value. Its twin, {@code
 * currentEmitEventTimeLag}, is Flink's own: it measures from the time each emitted row carries.
 */
public final class FetchLag {

    /** The lag before a split with an event time was opened: Flink's "undefined". */
    static final long UNDEFINED = -1;

    private volatile long lagMillis = UNDEFINED;

    public FetchLag(MetricGroup group) {
        group.gauge(MetricNames.CURRENT_FETCH_EVENT_TIME_LAG, (Gauge<Long>) () -> lagMillis);
    }

    /** Fetcher thread: a lane opens a split whose rows carry {@code eventTime}. */
    void opened(long eventTime) {
        lagMillis =
                eventTime == TimestampAssigner.NO_TIMESTAMP
                        ? UNDEFINED
                        : System.currentTimeMillis() - eventTime;
    }
}
