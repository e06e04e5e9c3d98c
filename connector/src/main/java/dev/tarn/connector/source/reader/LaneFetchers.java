package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcher;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherManager;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;

/**
 * The fetcher threads (lanes) of a source subtask ({@code read.decode-threads}): each split goes to
 * the lane its {@link LaneChoice} names, which reads its splits one at a time in the order they
 * came. Each lane has its own split reader, made again with the same lane when Flink restarts an
 * idle fetcher, so what a lane's reader keeps across splits (the current rows of its buckets)
 * belongs to one thread at a time. Called on the task thread only.
 */
public final class LaneFetchers extends SplitFetcherManager<RowBatch, TarnSplit> {

    private final Lanes lanes;
    private final LaneChoice choice;
    private final Map<Integer, Integer> fetcherOfLane = new HashMap<>();

    /**
     * Lanes for a read that follows the table: each bucket's splits on one lane ({@link
     * LaneChoice#byBucket}).
     *
     * @param readers the split reader of a lane (0 to {@code threads - 1})
     * @param parallelism the source's parallelism, among which the enumerator spread the buckets
     */
    public static LaneFetchers byBucket(
            IntFunction<SplitReader<RowBatch, TarnSplit>> readers, int threads, int parallelism) {
        return new LaneFetchers(new Lanes(readers), LaneChoice.byBucket(threads, parallelism));
    }

    /**
     * Lanes for a read of one snapshot: each split on the lane reading the fewest ({@link
     * LaneChoice#freest}); the reader must report each finished split ({@link #finished}).
     *
     * @param readers the split reader of a lane (0 to {@code threads - 1})
     */
    public static LaneFetchers freest(
            IntFunction<SplitReader<RowBatch, TarnSplit>> readers, int threads) {
        return new LaneFetchers(new Lanes(readers), LaneChoice.freest(threads));
    }

    private LaneFetchers(Lanes lanes, LaneChoice choice) {
        super(lanes, new Configuration());
        this.lanes = lanes;
        this.choice = choice;
    }

    /** Makes the split reader of the lane a fetcher is being created for. */
    private static final class Lanes implements Supplier<SplitReader<RowBatch, TarnSplit>> {
        private final IntFunction<SplitReader<RowBatch, TarnSplit>> readers;
        private int next;

        Lanes(IntFunction<SplitReader<RowBatch, TarnSplit>> readers) {
            this.readers = readers;
        }

        @Override
        public SplitReader<RowBatch, TarnSplit> get() {
            return readers.apply(next);
        }
    }

    @Override
    public void addSplits(List<TarnSplit> splits) {
        Map<Integer, List<TarnSplit>> byLane = new LinkedHashMap<>();
        for (TarnSplit split : splits) {
            byLane.computeIfAbsent(choice.laneOf(split), l -> new ArrayList<>()).add(split);
        }
        byLane.forEach(
                (lane, added) -> {
                    SplitFetcher<RowBatch, TarnSplit> fetcher = running(lane);
                    if (fetcher != null) {
                        fetcher.addSplits(added);
                        return;
                    }
                    synchronized (this) {
                        lanes.next = lane;
                        fetcher = createSplitFetcher();
                    }
                    fetcherOfLane.put(lane, fetcher.fetcherId());
                    fetcher.addSplits(added);
                    startFetcher(fetcher);
                });
    }

    /** Splits the task thread has emitted to their end: their lanes are free for others. */
    public void finished(Collection<String> splitIds) {
        choice.finished(splitIds);
    }

    @Override
    public void removeSplits(List<TarnSplit> splits) {
        // Flink removes splits only from readers that ask it to; Tarn's readers never do.
        throw new UnsupportedOperationException(
                "A Tarn source reader does not remove splits: " + splits);
    }

    @Nullable
    private SplitFetcher<RowBatch, TarnSplit> running(int lane) {
        Integer id = fetcherOfLane.get(lane);
        return id == null ? null : fetchers.get(id);
    }
}
