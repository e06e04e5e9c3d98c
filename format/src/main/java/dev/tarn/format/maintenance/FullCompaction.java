package dev.tarn.format.maintenance;

import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Compacts every bucket of a primary-key table into one sorted run at the last level, dropping
 * tombstones, or the small files of every bucket of an append table into files of the target size
 * ({@link AppendCompaction}), and publishes the result as one COMPACT snapshot that changes no row.
 * Runs in the calling thread, bucket by bucket. A bucket that a writer compacts or overwrites
 * meanwhile is left as that writer made it (the commit drops its compaction), and the result counts
 * it.
 */
public final class FullCompaction {

    /**
     * What a full compaction did.
     *
     * @param buckets the buckets with files in the snapshot it started from
     * @param compacted the buckets it rewrote (a bucket that is one run already is left alone)
     * @param snapshotId the COMPACT snapshot it published, if any
     * @param dropped buckets it rewrote but left as they were: writers rewrote them meanwhile
     */
    public record Result(
            String table, int buckets, int compacted, OptionalLong snapshotId, int dropped) {

        /** One line for an operator. */
        public String summary() {
            if (snapshotId.isEmpty()) {
                return dropped == 0
                        ? "Table " + table + " is compacted already: " + buckets + " buckets"
                        : String.format(
                                "Compacted no bucket of table %s: writers rewrote all %d buckets"
                                        + " it compacted while it ran; the table is unchanged, call"
                                        + " compact again",
                                table, dropped);
            }
            String line =
                    String.format(
                            "Compacted %d buckets of table %s into snapshot %d",
                            compacted - dropped, table, snapshotId.getAsLong());
            return dropped == 0
                    ? line
                    : line
                            + String.format(
                                    "; %d buckets were rewritten by writers while it ran and are"
                                            + " left as they are",
                                    dropped);
        }
    }

    private FullCompaction() {}

    private static List<CommitMessage> compactTrees(TableContext table, Set<BucketId> buckets)
            throws IOException {
        try (TableWrite write = new TableWrite(table, false)) {
            for (BucketId bucket : buckets) {
                write.compactFully(bucket.partition(), bucket.bucket());
            }
            return write.prepareCommit(true);
        }
    }

    /** Compacts {@code table}'s latest snapshot fully; a table without snapshots is left alone. */
    public static Optional<Result> run(TableContext table) {
        Optional<Snapshot> latest = table.snapshotReader().latest();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Set<BucketId> buckets = table.snapshotReader().filesByBucket(latest.get()).keySet();
        List<CommitMessage> messages;
        try {
            messages =
                    switch (table.kind()) {
                        case APPEND -> AppendCompaction.compact(table, latest.get());
                        case PRIMARY_KEY -> compactTrees(table, buckets);
                    };
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot compact table " + table.name() + ": " + e.getMessage(), e);
        }
        TableCommit.Result result =
                new TableCommit(table, "compact-" + UUID.randomUUID()).publish(1, messages);
        int compacted = (int) messages.stream().filter(m -> !m.deletedFiles().isEmpty()).count();
        return Optional.of(
                new Result(
                        table.name(),
                        buckets.size(),
                        compacted,
                        result.snapshotId(),
                        result.droppedCompactions().size()));
    }
}
