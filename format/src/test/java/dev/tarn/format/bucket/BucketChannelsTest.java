package dev.tarn.format.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.manifest.Partition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The owner of a bucket is fixed by the format's history (a restored writer finds its buckets'
 * state where this puts them), and a channel's buckets spread over all its lanes.
 */
class BucketChannelsTest {

    @Test
    void channelsAreThoseWritersAlwaysHad() {
        // Values of floorMod(31 * partition.hashCode() + bucket, n), the routing of every earlier
        // release: a change here moves buckets to other writer subtasks than their state is in.
        assertThat(BucketChannels.channel(Partition.EMPTY, 0, 2)).isEqualTo(1);
        assertThat(BucketChannels.channel(Partition.EMPTY, 3, 4)).isEqualTo(2);
        assertThat(BucketChannels.channel(Partition.of("2026-12-01"), 5, 3))
                .isEqualTo(Math.floorMod(31 * List.of("2026-12-01").hashCode() + 5, 3));
        assertThat(BucketChannels.channel(Partition.of((String) null), 1, 7))
                .isEqualTo(
                        Math.floorMod(
                                31 * java.util.Arrays.asList((String) null).hashCode() + 1, 7));
    }

    @Test
    void everyChannelsBucketsSpreadOverAllItsLanes() {
        for (int channels = 1; channels <= 4; channels++) {
            for (int lanes = 1; lanes <= 3; lanes++) {
                for (Partition partition : List.of(Partition.EMPTY, Partition.of("a"))) {
                    for (int channel = 0; channel < channels; channel++) {
                        Set<Integer> used = new HashSet<>();
                        for (int bucket = 0; bucket < 8 * channels * lanes; bucket++) {
                            if (BucketChannels.channel(partition, bucket, channels) != channel) {
                                continue;
                            }
                            int lane = BucketChannels.lane(partition, bucket, channels, lanes);
                            assertThat(lane).isBetween(0, lanes - 1);
                            used.add(lane);
                        }
                        assertThat(used)
                                .as(
                                        "lanes of channel %d of %d (%d lanes) of %s",
                                        channel, channels, lanes, partition)
                                .hasSize(lanes);
                    }
                }
            }
        }
    }
}
