package dev.tarn.format.commit;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Counts what one {@link TableCommit#commit} call publishes, attempt by attempt, into its {@link
 * CommitStats}. Only the committing thread touches it; a new tally per call.
 */
final class CommitTally {

    private final long startNanos = System.nanoTime();
    private int attempts;
    private long added;
    private long deleted;
    private long appended;
    private long deltaRecords;
    private long changelogRecords;
    private final Set<Partition> partitions = new HashSet<>();
    private final Set<BucketId> buckets = new HashSet<>();

    /** One more staging of a snapshot, published or not. */
    void attempt() {
        attempts++;
    }

    /** A snapshot of {@code kind} was published with {@code delta} and {@code changelog}. */
    void published(CommitKind kind, List<ManifestEntry> delta, List<ManifestEntry> changelog) {
        boolean appends = kind != CommitKind.COMPACT;
        for (ManifestEntry e : delta) {
            partitions.add(e.partition());
            buckets.add(e.bucketId());
            if (e.kind() == FileKind.DELETE) {
                deleted++;
                continue;
            }
            added++;
            if (appends) {
                appended++;
                deltaRecords += e.file().rowCount();
            }
        }
        if (appends) {
            for (ManifestEntry e : changelog) {
                changelogRecords += e.file().rowCount();
            }
        }
    }

    CommitStats stats() {
        return new CommitStats(
                (System.nanoTime() - startNanos) / 1_000_000,
                attempts,
                new CommitStats.Files(added, deleted, appended),
                new CommitStats.Records(deltaRecords, changelogRecords),
                partitions.size(),
                buckets.size());
    }
}
