package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.TarnSplit;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands out the splits of one planned snapshot, one per request, until none is left. Splits go to
 * whichever reader asks, so fast readers take more; a failed reader's splits come back through
 * {@link #addSplitsBack}.
 */
public final class TarnSplitEnumerator implements SplitEnumerator<TarnSplit, TarnEnumeratorState> {

    private final SplitEnumeratorContext<TarnSplit> context;
    private final Queue<TarnSplit> pending;

    public TarnSplitEnumerator(SplitEnumeratorContext<TarnSplit> context, List<TarnSplit> splits) {
        this.context = context;
        this.pending = new ArrayDeque<>(splits);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        TarnSplit next = pending.poll();
        if (next != null) {
            context.assignSplit(next, subtaskId);
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<TarnSplit> splits, int subtaskId) {
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves.
    }

    @Override
    public TarnEnumeratorState snapshotState(long checkpointId) {
        return TarnEnumeratorState.bounded(List.copyOf(pending));
    }

    @Override
    public void close() {}
}
