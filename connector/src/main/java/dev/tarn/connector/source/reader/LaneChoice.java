package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.bucket.BucketChannels;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Which of a source subtask's fetcher threads (lanes) reads a split, chosen once per read by what
 * it must keep: a read that follows the table keeps each bucket on one lane ({@link #byBucket}), a
 * read of one snapshot keeps every lane busy ({@link #freest}). Called on the task thread only.
 */
interface LaneChoice {

    /** The lane, from 0 to the lane count - 1, that reads {@code split}, assigned now. */
    int laneOf(TarnSplit split);

    /** These splits were read to their end (ids of splits never assigned are ignored). */
    void finished(Collection<String> splitIds);

    /**
     * Each bucket's splits on one lane, whatever their snapshot: one thread reads them in the order
     * assigned, so a key's changes keep their order. The buckets the enumerator gives one subtask
     * spread over all its lanes ({@link BucketChannels#lane}); an unbucketed append table's splits,
     * which have no order to keep, go round robin.
     *
     * @param parallelism the source's parallelism, among which the enumerator spread the buckets
     */
    static LaneChoice byBucket(int lanes, int parallelism) {
        return new ByBucket(lanes, parallelism);
    }

    /**
     * The lane reading the fewest splits, the lowest of them on a tie: a read of one snapshot needs
     * no order between its splits, so a subtask that holds no more splits than it has lanes reads
     * each on a lane of its own.
     */
    static LaneChoice freest(int lanes) {
        return new Freest(lanes);
    }

    /** See {@link #byBucket}. */
    final class ByBucket implements LaneChoice {
        private final int lanes;
        private final int parallelism;
        private int roundRobin;

        private ByBucket(int lanes, int parallelism) {
            this.lanes = lanes;
            this.parallelism = parallelism;
        }

        @Override
        public int laneOf(TarnSplit split) {
            if (lanes == 1) {
                return 0;
            }
            if (split.split().totalBuckets() < 0) {
                return Math.floorMod(roundRobin++, lanes);
            }
            return BucketChannels.lane(
                    split.split().partition(), split.split().bucket(), parallelism, lanes);
        }

        @Override
        public void finished(Collection<String> splitIds) {}
    }

    /** See {@link #freest}. Invariant: {@code reading[l]} counts the splits lane l holds. */
    final class Freest implements LaneChoice {
        private final int[] reading;
        private final Map<String, Integer> laneOfSplit = new HashMap<>();

        private Freest(int lanes) {
            this.reading = new int[lanes];
        }

        @Override
        public int laneOf(TarnSplit split) {
            int freest = 0;
            for (int lane = 1; lane < reading.length; lane++) {
                if (reading[lane] < reading[freest]) {
                    freest = lane;
                }
            }
            reading[freest]++;
            laneOfSplit.put(split.splitId(), freest);
            return freest;
        }

        @Override
        public void finished(Collection<String> splitIds) {
            for (String id : splitIds) {
                Integer lane = laneOfSplit.remove(id);
                if (lane != null) {
                    reading[lane]--;
                }
            }
        }
    }
}
