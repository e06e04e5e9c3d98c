package dev.tarn.connector.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lanes of a source subtask's fetcher threads: every split of one bucket goes to the same lane,
 * whatever its snapshot, so one thread reads a bucket's changes in order; the buckets the
 * enumerator gives one subtask spread over all its lanes, at any parallelism; an unbucketed append
 * table's splits go round robin.
 */
class BucketFetchersTest {

    private static Split split(long snapshot, String partition, int bucket, int buckets) {
        return new Split(snapshot, Partition.of(partition), bucket, buckets, List.of());
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2, 3})
    void aBucketStaysOnOneLaneAndASubtasksBucketsSpreadOverTheLanes(int parallelism)
            throws Exception {
        BucketFetchers fetchers = BucketFetchers.create(lane -> null, 2, parallelism);
        try {
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
                            int lane = fetchers.laneOf(split(snapshot, partition, bucket, 8));
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
            assertThat(fetchers.laneOf(split(1, "a", 0, -1)))
                    .isNotEqualTo(fetchers.laneOf(split(1, "a", 0, -1)));
        } finally {
            fetchers.close(1000);
        }
    }
}
