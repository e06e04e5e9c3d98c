package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.read.ScanStats;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands out the splits of one planned snapshot, one per request, until none is left. Splits go to
 * whichever reader asks, so fast readers take more; a failed reader's splits come back through
 * {@link #addSplitsBack}. A reader asks for several at a time (one per fetcher thread), so once it
 * has been told that no split is left it gets no other, even if a failed reader's come back: it may
 * have ended already. Those go to the next reader that asks, and the failed reader asks again when
 * it restarts. Called on the coordinator thread only. Reports what the scan that planned the splits
 * read and skipped ({@link ScanMetrics}).
 */
public final class TarnSplitEnumerator implements SplitEnumerator<TarnSplit, TarnEnumeratorState> {

    private final SplitEnumeratorContext<TarnSplit> context;
    private final Queue<TarnSplit> pending;

    /** Readers told that no split is left, until they register again after a restart. */
    private final Set<Integer> toldNoMore = new HashSet<>();

    /**
     * @param planned what the scan that planned {@code splits} counted, or null for splits restored
     *     from a checkpoint
     */
    public TarnSplitEnumerator(
            SplitEnumeratorContext<TarnSplit> context,
            List<TarnSplit> splits,
            @Nullable ScanStats planned) {
        this.context = context;
        this.pending = new ArrayDeque<>(splits);
        ScanMetrics scans = new ScanMetrics(context.metricGroup());
        if (planned != null) {
            scans.scanned(planned.durationMillis(), planned);
        }
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        if (toldNoMore.contains(subtaskId)) {
            return;
        }
        TarnSplit next = pending.poll();
        if (next != null) {
            context.assignSplit(next, subtaskId);
        } else {
            toldNoMore.add(subtaskId);
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<TarnSplit> splits, int subtaskId) {
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves; a restarted one may be given splits again.
        toldNoMore.remove(subtaskId);
    }

    @Override
    public TarnEnumeratorState snapshotState(long checkpointId) {
        return TarnEnumeratorState.bounded(List.copyOf(pending));
    }

    @Override
    public void close() {}
}
