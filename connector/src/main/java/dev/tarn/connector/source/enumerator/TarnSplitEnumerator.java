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
 *
 * <p>Since a reader asks for a split per fetcher thread at once, the first reader to start would
 * take every split of a read with few of them (the two files of a table written at parallelism 2),
 * and the other readers, each with a task thread of its own to emit rows on, none. So a reader that
 * has a split already waits for another while there are no more splits left than readers that have
 * none and may still ask: its request is answered once a split is left over for it, or with the end
 * once none is.
 */
public final class TarnSplitEnumerator implements SplitEnumerator<TarnSplit, TarnEnumeratorState> {

    private final SplitEnumeratorContext<TarnSplit> context;
    private final Queue<TarnSplit> pending;

    /** Readers told that no split is left, until they register again after a restart. */
    private final Set<Integer> toldNoMore = new HashSet<>();

    /** Readers given a split since they registered. */
    private final Set<Integer> given = new HashSet<>();

    /** Requests of readers with a split, waiting for one to be left over for them, oldest first. */
    private final Queue<Integer> waiting = new ArrayDeque<>();

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
        if (leavesFor(subtaskId)) {
            waiting.add(subtaskId);
            return;
        }
        answer(subtaskId);
        answerWaiting();
    }

    /**
     * Whether a request of {@code subtask} must leave the pending splits to readers that have none:
     * it has one, and there are no more left than such readers.
     */
    private boolean leavesFor(int subtask) {
        if (!given.contains(subtask) || pending.isEmpty()) {
            return false;
        }
        int withoutSplit = 0;
        for (int reader = 0; reader < context.currentParallelism(); reader++) {
            if (reader != subtask && !given.contains(reader) && !toldNoMore.contains(reader)) {
                withoutSplit++;
            }
        }
        return pending.size() <= withoutSplit;
    }

    /** Gives {@code subtask} the next split, or tells it that none is left. */
    private void answer(int subtask) {
        TarnSplit next = pending.poll();
        if (next != null) {
            context.assignSplit(next, subtask);
            given.add(subtask);
        } else {
            toldNoMore.add(subtask);
            context.signalNoMoreSplits(subtask);
        }
    }

    /** Answers the waiting requests that need wait no longer. */
    private void answerWaiting() {
        for (int i = waiting.size(); i > 0; i--) {
            int subtask = waiting.poll();
            if (toldNoMore.contains(subtask) || !context.registeredReaders().containsKey(subtask)) {
                continue; // Failed since it asked: it asks again when it registers again.
            }
            if (leavesFor(subtask)) {
                waiting.add(subtask);
            } else {
                answer(subtask);
            }
        }
    }

    @Override
    public void addSplitsBack(List<TarnSplit> splits, int subtaskId) {
        // Its reader failed: what it asked for, it asks for again when it registers again.
        waiting.removeIf(s -> s == subtaskId);
        pending.addAll(splits);
        answerWaiting();
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves; a restarted one may be given splits again, and asks
        // again for what it asked for before it failed.
        toldNoMore.remove(subtaskId);
        given.remove(subtaskId);
        waiting.removeIf(s -> s == subtaskId);
        answerWaiting();
    }

    @Override
    public TarnEnumeratorState snapshotState(long checkpointId) {
        return TarnEnumeratorState.bounded(List.copyOf(pending));
    }

    @Override
    public void close() {}
}
