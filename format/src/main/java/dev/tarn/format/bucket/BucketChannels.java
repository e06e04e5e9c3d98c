package dev.tarn.format.bucket;

import dev.tarn.format.manifest.Partition;

/**
 * Which of {@code n} parallel channels (writer subtasks, source readers, lookup-join subtasks) owns
 * one bucket of one partition, and which of a channel's lanes (its fetcher threads) reads it. The
 * one place this is computed, so that the rows a writer takes, the splits a reader is given and the
 * keys a lookup subtask serves agree on every bucket.
 *
 * <p>The channel is {@code floorMod(31 * hash(partition) + bucket, n)}, the hash being that of the
 * partition's values as a list of strings ({@link Partition#hashCode}, stable across JVMs). It
 * decides which writer subtask owns a bucket, whose state a restored job finds there, so it never
 * changes. Lanes split one channel's buckets further: lane {@code l} of channel {@code c} among
 * {@code n} holds the buckets whose hash is {@code c + l * n} modulo {@code n * lanes}, so the
 * buckets a channel owns spread over all its lanes whatever {@code n} is.
 */
public final class BucketChannels {

    private BucketChannels() {}

    /** The channel of {@code bucket} of {@code partition} among {@code channels}. */
    public static int channel(Partition partition, int bucket, int channels) {
        return Math.floorMod(hash(partition, bucket), channels);
    }

    /**
     * The lane, from 0 to {@code lanes - 1}, of {@code bucket} of {@code partition} within its
     * channel among {@code channels}.
     */
    public static int lane(Partition partition, int bucket, int channels, int lanes) {
        return (int)
                (Math.floorMod((long) hash(partition, bucket), (long) channels * lanes) / channels);
    }

    private static int hash(Partition partition, int bucket) {
        return 31 * partition.hashCode() + bucket;
    }
}
