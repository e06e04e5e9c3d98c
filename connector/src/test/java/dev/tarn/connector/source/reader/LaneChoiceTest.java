package dev.tarn.connector.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lanes of a source subtask's fetcher threads. Following a table: every split of one bucket
 * goes to the same lane, whatever its snapshot, so one thread reads a bucket's changes in order;
 * the buckets the enumerator gives one subtask spread over all its lanes, at any parallelism; an
 * unbucketed append table's splits go round robin. Reading one snapshot: a split goes to a lane
 * that reads none while there is one, so as many splits as lanes are read at once, and a lane is
 * free again once its split is finished.
 */
class LaneChoiceTest {

    private static TarnSplit split(long snapshot, String partition, int bucket, int buckets) {
        return TarnSplit.of(
                snapshot + "-" + partition + "-" + bucket,
                new Split(snapshot, Partition.of(partition), bucket, buckets, List.of()),
                0L);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2, 3})
    void aBucketStaysOnOneLaneAndASubtasksBucketsSpreadOverTheLanes(int parallelism) {
        LaneChoice lanes = LaneChoice.byBucket(2, parallelism);
        for (int subtask = 0; subtask < parallelism; subtask++) {
            Map<String, Integer> laneOfBucket = new HashMap<>();
            Set<Integer> used = new HashSet<>();
            for (long snapshot = 1; snapshot <= 20; snapshot++) {
                for (String partition : List.of("a", "b")) {
                    for (int bucket = 0; bucket < 8; bucket++) {
                        if (BucketChannels.channel(Partition.of(partition), bucket, parallelism)
                                != subtask) {
                            continue; // the enumerator gives this bucket to another subtask
                        }
                        int lane = lanes.laneOf(split(snapshot, partition, bucket, 8));
                        assertThat(lane).isBetween(0, 1);
                        Integer before = laneOfBucket.putIfAbsent(partition + bucket, lane);
                        assertThat(before == null ? lane : before)
                                .as(
                                        "lane of bucket %d of %s at snapshot %d",
                                        bucket, partition, snapshot)
                                .isEqualTo(lane);
                        used.add(lane);
                    }
                }
            }
            assertThat(used).as("lanes of subtask %d", subtask).containsExactlyInAnyOrder(0, 1);
        }
        assertThat(lanes.laneOf(split(1, "a", 0, -1)))
                .isNotEqualTo(lanes.laneOf(split(1, "a", 0, -1)));
    }

    @Test
    void aSnapshotsSplitsGoToFreeLanesWhateverTheirBucket() {
        LaneChoice lanes = LaneChoice.freest(3);
        // Three splits of one bucket: nothing keeps them together in a read of one snapshot.
        List<Integer> first = new ArrayList<>();
        for (int file = 0; file < 3; file++) {
            first.add(lanes.laneOf(TarnSplit.of("s" + file, split(1, "a", 0, 4).split(), 0L)));
        }
        assertThat(first).containsExactlyInAnyOrder(0, 1, 2);

        // The lane whose split finished takes the next one, whichever it is.
        lanes.finished(List.of("s1"));
        assertThat(lanes.laneOf(split(1, "a", 1, 4))).isEqualTo(first.get(1));
        lanes.finished(List.of("s2", "never-assigned"));
        assertThat(lanes.laneOf(split(1, "b", 2, 4))).isEqualTo(first.get(2));

        // More splits than lanes (a restored reader): the least loaded lane, never one lane alone.
        List<Integer> more = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            more.add(lanes.laneOf(TarnSplit.of("m" + i, split(2, "a", i, 8).split(), 0L)));
        }
        assertThat(more).containsOnly(0, 1, 2).containsExactly(0, 1, 2, 0, 1, 2);
    }

    @Test
    void aSubtaskHoldingAsManySplitsAsLanesReadsEachOnALaneOfItsOwn() {
        // A model of a pulling reader: it holds at most 3 splits, and each finished split is
        // replaced by the next; at every step the lanes in use are all different.
        Random random = new Random(42);
        LaneChoice lanes = LaneChoice.freest(3);
        Map<String, Integer> held = new HashMap<>();
        int next = 0;
        for (int step = 0; step < 500; step++) {
            while (held.size() < 3) {
                String id = "split-" + next++;
                int lane = lanes.laneOf(TarnSplit.of(id, split(1, "a", next % 4, 4).split(), 0L));
                assertThat(held.containsValue(lane))
                        .as("lane %d already reads a split at step %d", lane, step)
                        .isFalse();
                held.put(id, lane);
            }
            List<String> ids = new ArrayList<>(held.keySet());
            String done = ids.get(random.nextInt(ids.size()));
            held.remove(done);
            lanes.finished(List.of(done));
        }
    }
}
