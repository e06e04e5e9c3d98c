package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.read.Split;
import java.util.ArrayList;
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
 * The fetcher threads of a source subtask ({@code streaming-read.decode-threads}): each bucket's
 * splits go to one of them, chosen by the bucket, so they are read in the order they were assigned
 * and a key's changes keep their order; an unbucketed append table's splits, which have no order to
 * keep, go round robin. Each thread has its own split reader for its lane, made again with the same
 * lane when Flink restarts an idle fetcher, so what a lane's reader keeps across splits (the
 * current rows of its buckets) belongs to one thread at a time. Called on the task thread only.
 */
public final class BucketFetchers extends SplitFetcherManager<RowBatch, TarnSplit> {

    private final Lanes lanes;
    private final int threads;
    private final int parallelism;
    private final Map<Integer, Integer> fetcherOfLane = new HashMap<>();
    private int roundRobin;

    /**
     * @param readers the split reader of a lane (0 to {@code threads - 1})
     * @param parallelism the source's parallelism, among which the enumerator spread the buckets
     */
    public static BucketFetchers create(
            IntFunction<SplitReader<RowBatch, TarnSplit>> readers, int threads, int parallelism) {
        return new BucketFetchers(new Lanes(readers), threads, parallelism);
    }

    private BucketFetchers(Lanes lanes, int threads, int parallelism) {
        super(lanes, new Configuration());
        this.lanes = lanes;
        this.threads = threads;
        this.parallelism = parallelism;
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
        byLane(splits)
                .forEach(
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

    @Override
    public void removeSplits(List<TarnSplit> splits) {
        byLane(splits)
                .forEach(
                        (lane, removed) -> {
                            SplitFetcher<RowBatch, TarnSplit> fetcher = running(lane);
                            if (fetcher != null) {
                                fetcher.removeSplits(removed);
                            }
                        });
    }

    @Nullable
    private SplitFetcher<RowBatch, TarnSplit> running(int lane) {
        Integer id = fetcherOfLane.get(lane);
        return id == null ? null : fetchers.get(id);
    }

    private Map<Integer, List<TarnSplit>> byLane(List<TarnSplit> splits) {
        Map<Integer, List<TarnSplit>> lanes = new LinkedHashMap<>();
        for (TarnSplit split : splits) {
            lanes.computeIfAbsent(laneOf(split.split()), l -> new ArrayList<>()).add(split);
        }
        return lanes;
    }

    /**
     * The lane of {@code split}: its bucket's {@link BucketChannels#lane} within this subtask, or
     * round robin for an unbucketed one.
     */
    int laneOf(Split split) {
        if (threads == 1) {
            return 0;
        }
        if (split.totalBuckets() < 0) {
            return Math.floorMod(roundRobin++, threads);
        }
        return BucketChannels.lane(split.partition(), split.bucket(), parallelism, threads);
    }
}
