package dev.tarn.connector.source;

import dev.tarn.connector.source.reader.FetchLag;
import dev.tarn.connector.source.reader.LaneFetchers;
import dev.tarn.connector.source.reader.RowBatch;
import dev.tarn.connector.source.reader.RowLimit;
import dev.tarn.connector.source.reader.RowWatermarks;
import dev.tarn.connector.source.reader.SnapshotWatermarks;
import dev.tarn.connector.source.reader.TarnRecordEmitter;
import dev.tarn.connector.source.reader.TarnSplitReader;
import dev.tarn.connector.source.split.SnapshotWatermark;
import dev.tarn.connector.source.split.SplitsFinished;
import dev.tarn.connector.source.split.SplitsRestored;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.connector.source.split.TarnSplitState;
import dev.tarn.format.read.TableRead;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

/**
 * A source subtask: its splits are read by {@link TarnSplitReader}s on {@code read.decode-threads}
 * fetcher threads (lanes, {@link LaneFetchers}), and the task thread only emits rows and tracks
 * each split's position, which is what a checkpoint holds. A read of one snapshot (pull) gives each
 * split to the freest lane and keeps one split per lane: it asks the enumerator for that many when
 * it starts (less those it restored) and for another whenever it finishes one, until told there are
 * no more. A read that follows the table is sent its splits, each bucket's on one lane in order,
 * and reports each finished one, so that a consumer's recorded position never passes a split still
 * being read.
 *
 * <p>Holding no more splits than lanes leaves a lane idle between two splits only for the round
 * trip of a request, while a split held in reserve could wait behind a long one as another subtask
 * runs out of work at the end of the read.
 *
 * <p>With a watermark it emits those the enumerator sends, each once it has emitted every row of
 * its splits of the snapshots that watermark covers ({@link SnapshotWatermarks}); a watermark that
 * arrives while the reader has nothing to read wakes it. With a declared watermark it also runs the
 * declared generator over its rows ({@link RowWatermarks}) and reports the result with each split
 * it finishes, which is what the enumerator makes the table's watermark of.
 */
final class TarnSourceReader
        extends SourceReaderBase<RowBatch, RowData, TarnSplit, TarnSplitState> {

    private final boolean pull;
    private final int threads;
    private final LaneFetchers fetchers;
    @Nullable private final SnapshotWatermarks watermarks;
    @Nullable private final RowWatermarks declared;

    /** Splits added before the reader started: those it restored from its checkpoint. */
    private final List<String> restored = new ArrayList<>();

    private boolean started;

    /** A pulling reader's split requests the enumerator has not answered yet. */
    private int requested;

    /** Whether the enumerator said it has no more splits for this reader. */
    private boolean noMoreSplits;

    /** Completed when a watermark becomes due while the reader waits; then replaced. */
    private CompletableFuture<Void> watermarkDue = new CompletableFuture<>();

    /**
     * @param reads the read of each of the {@code threads} fetcher threads (lanes), made once per
     *     lane: what a read keeps across splits belongs to its lane
     * @param pull whether the reader reads one snapshot, asking for its splits
     */
    TarnSourceReader(
            SourceReaderContext context,
            IntFunction<TableRead> reads,
            int threads,
            long limit,
            boolean pull,
            TarnSource.Watermarks watermarks) {
        this(
                context,
                lanes(
                        reads,
                        threads,
                        context.currentParallelism(),
                        new RowLimit(limit),
                        pull,
                        new FetchLag(context.metricGroup())),
                threads,
                pull,
                watermarks,
                watermarks.declared() == null
                        ? null
                        : new RowWatermarks(watermarks.declared(), context.metricGroup()));
    }

    private TarnSourceReader(
            SourceReaderContext context,
            LaneFetchers fetchers,
            int threads,
            boolean pull,
            TarnSource.Watermarks watermarks,
            @Nullable RowWatermarks declared) {
        super(fetchers, new TarnRecordEmitter(declared), new Configuration(), context);
        this.fetchers = fetchers;
        this.threads = threads;
        this.pull = pull;
        this.watermarks = watermarks.source() == null ? null : new SnapshotWatermarks();
        this.declared = declared;
    }

    /**
     * The fetchers of {@code threads} lanes, each lane's reads on one read of its own, all under
     * one limit, all reporting to one fetch lag.
     */
    private static LaneFetchers lanes(
            IntFunction<TableRead> reads,
            int threads,
            int parallelism,
            RowLimit limit,
            boolean pull,
            FetchLag fetchLag) {
        TableRead[] lanes = new TableRead[threads];
        IntFunction<SplitReader<RowBatch, TarnSplit>> readers =
                lane -> {
                    if (lanes[lane] == null) {
                        lanes[lane] = reads.apply(lane);
                    }
                    return new TarnSplitReader(lanes[lane], limit, pull, fetchLag);
                };
        return pull
                ? LaneFetchers.freest(readers, threads)
                : LaneFetchers.byBucket(readers, threads, parallelism);
    }

    @Override
    public void start() {
        super.start();
        started = true;
        if (pull) {
            requestSplits();
        } else {
            context.sendSourceEventToCoordinator(new SplitsRestored(restored));
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
        InputStatus status = super.pollNext(output);
        if (watermarks != null) {
            long due = watermarks.takeDue();
            if (due != Long.MIN_VALUE) {
                output.emitWatermark(new Watermark(due));
            }
        }
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> fetched = super.isAvailable();
        if (watermarks == null || fetched.isDone()) {
            return fetched;
        }
        if (watermarks.hasDue()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.anyOf(fetched, watermarkDue).thenApply(done -> null);
    }

    /** Asks for splits until every lane has one, counting those asked for. */
    private void requestSplits() {
        while (!noMoreSplits && getNumberOfCurrentlyAssignedSplits() + requested < threads) {
            requested++;
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<TarnSplit> splits) {
        if (!started) {
            splits.forEach(s -> restored.add(s.splitId()));
        } else if (pull) {
            // Each request is answered with one split, or with the end.
            requested = Math.max(0, requested - splits.size());
        }
        if (watermarks != null) {
            splits.forEach(s -> watermarks.assigned(s.splitId(), s.split().snapshotId()));
        }
        super.addSplits(splits);
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof SnapshotWatermark watermark && watermarks != null) {
            watermarks.received(watermark);
            if (watermarks.hasDue()) {
                CompletableFuture<Void> due = watermarkDue;
                watermarkDue = new CompletableFuture<>();
                due.complete(null);
            }
            return;
        }
        super.handleSourceEvents(event);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        requested = 0;
        super.notifyNoMoreSplits();
    }

    @Override
    protected void onSplitFinished(Map<String, TarnSplitState> finished) {
        fetchers.finished(finished.keySet());
        if (watermarks != null) {
            finished.keySet().forEach(watermarks::finished);
        }
        if (pull) {
            requestSplits();
        } else {
            context.sendSourceEventToCoordinator(
                    new SplitsFinished(
                            new ArrayList<>(finished.keySet()),
                            declared == null ? null : declared.current()));
        }
    }

    @Override
    protected TarnSplitState initializedState(TarnSplit split) {
        return new TarnSplitState(split);
    }

    @Override
    protected TarnSplit toSplitType(String splitId, TarnSplitState state) {
        return state.toSplit();
    }
}
