package dev.tarn.format.commit;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses which compactions of a commit still apply to the table as it now is. A compaction
 * replaces files; if another writer (or a compaction job) has replaced one of them since, it can
 * never apply, and it is dropped: its inputs stay live and hold every row it would have rewritten,
 * so dropping it loses nothing. So is one whose input files' deletion vectors another commit
 * changed since it read them: its output lacks those deletions. Compactions are taken in order, so
 * one that rewrites the output of an earlier one of the same commit (a retry of several
 * checkpoints) applies exactly when that one does. Once dropped, a compaction stays dropped: a
 * replaced file never becomes live again.
 *
 * <p>In a primary-key table a compaction is also dropped when a file it adds above level 0 would
 * overlap, in key range, a live file of the same level it does not replace: the files of a level
 * form one sorted run (SPEC.md, "Primary-key data files"), which readers merge as one. Two
 * compactions of one bucket whose inputs differ (two writers of the bucket, or a writer and a
 * compaction job, each compacting the files it saw) can otherwise both apply and leave one level
 * holding the same keys twice.
 */
final class CompactionStaging implements Staging {

    private final List<CommitMessage> compactions;
    private final Set<CommitMessage> dropped = new HashSet<>();

    /** Orders the primary keys of the files' key ranges; null in an append table. */
    @Nullable private final Comparator<byte[]> keys;

    /** Why each dropped compaction was dropped, from the attempt that dropped it. */
    private final Map<CommitMessage, String> reasons = new HashMap<>();

    private final List<ManifestEntry> changelog = new ArrayList<>();
    private Map<ManifestEntry.FileId, DeletionFile> vectors = Map.of();

    private static final Logger LOG = LoggerFactory.getLogger(CompactionStaging.class);

    /**
     * @param keys orders the encoded primary keys of the files' key ranges; null in an append
     *     table, whose files have none
     */
    CompactionStaging(List<CommitMessage> compactions, @Nullable Comparator<byte[]> keys) {
        this.compactions = List.copyOf(compactions);
        this.keys = keys;
    }

    @Override
    public CommitKind kind() {
        return CommitKind.COMPACT;
    }

    /**
     * The entries of the compactions that apply on top of {@code live}; those that no longer apply
     * join {@link #dropped}.
     */
    @Override
    public List<ManifestEntry> stage(
            @Nullable Snapshot snapshot,
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, DeletionFile> latest) {
        Set<ManifestEntry.FileId> available = new HashSet<>(live.keySet());
        VectorStaging staged = new VectorStaging(live, latest);
        Map<BucketId, List<DataFile>> bucketFiles = keys == null ? Map.of() : bucketFiles(live);
        List<ManifestEntry> entries = new ArrayList<>();
        changelog.clear();
        for (CommitMessage m : compactions) {
            List<ManifestEntry.FileId> inputs = ids(m, m.deletedFiles());
            if (dropped.contains(m)) {
                continue;
            }
            ManifestEntry.FileId gone =
                    inputs.stream().filter(f -> !available.contains(f)).findFirst().orElse(null);
            String conflict =
                    gone != null
                            ? String.format(
                                    "data file %s of bucket %d of partition %s is no longer in the"
                                            + " table (another commit compacted or overwrote it)",
                                    gone.fileName(), gone.bucket(), gone.partition())
                            : staged.conflict(m);
            if (conflict == null && keys != null) {
                conflict = overlap(m, bucketFiles, available);
            }
            if (conflict != null) {
                LOG.info(
                        "Dropping a compaction of bucket {} of partition {}: {}",
                        m.bucket(),
                        m.partition(),
                        conflict);
                drop(m, conflict);
                continue;
            }
            staged.apply(m);
            available.removeAll(inputs);
            available.addAll(ids(m, m.newFiles()));
            if (keys != null) {
                bucketFiles
                        .computeIfAbsent(
                                new BucketId(m.partition(), m.bucket()), b -> new ArrayList<>())
                        .addAll(m.newFiles());
            }
            for (DataFile f : m.deletedFiles()) {
                entries.add(entry(FileKind.DELETE, m, f));
            }
            for (DataFile f : m.newFiles()) {
                entries.add(entry(FileKind.ADD, m, f));
            }
            for (DataFile f : m.changelogFiles()) {
                changelog.add(entry(FileKind.ADD, m, f));
            }
        }
        vectors = staged.vectors();
        return entries;
    }

    @Override
    public Map<ManifestEntry.FileId, DeletionFile> vectors() {
        return vectors;
    }

    /**
     * The changelog entries of the compactions the last {@link #stage} kept (full compactions store
     * one): a dropped compaction's changelog is dropped, and deleted, with it.
     */
    @Override
    public List<ManifestEntry> changelog() {
        return List.copyOf(changelog);
    }

    /** Which compactions apply may differ from attempt to attempt. */
    @Override
    public boolean sameEveryAttempt() {
        return false;
    }

    /** When no compaction applies any more, there is nothing to publish. */
    @Override
    public boolean publishesWhenEmpty(boolean advancesWatermark) {
        return false;
    }

    /** Every compaction, once the commit has given up on all of them, {@code why}. */
    void dropAll(String why) {
        compactions.forEach(m -> drop(m, why));
    }

    private void drop(CommitMessage m, String why) {
        dropped.add(m);
        reasons.putIfAbsent(m, why);
    }

    /** The compactions dropped so far, in commit order. */
    List<CommitMessage> dropped() {
        return compactions.stream().filter(dropped::contains).toList();
    }

    /** Why each of {@code dropped} was dropped, in its order. */
    List<String> reasons(List<CommitMessage> dropped) {
        return dropped.stream().map(reasons::get).toList();
    }

    /** The live files of the buckets the compactions touch, by bucket. */
    private Map<BucketId, List<DataFile>> bucketFiles(
            Map<ManifestEntry.FileId, ManifestEntry> live) {
        Map<BucketId, List<DataFile>> files = new HashMap<>();
        for (CommitMessage m : compactions) {
            files.put(new BucketId(m.partition(), m.bucket()), new ArrayList<>());
        }
        for (ManifestEntry e : live.values()) {
            List<DataFile> bucket = files.get(e.bucketId());
            if (bucket != null) {
                bucket.add(e.file());
            }
        }
        return files;
    }

    /**
     * Why {@code m} would break a level of its bucket into overlapping files, or null if it does
     * not: a file it adds above level 0 overlaps, in key range, a file of that level that is live
     * ({@code available}, among the bucket's files seen so far) and that {@code m} does not
     * replace.
     */
    @Nullable
    private String overlap(
            CommitMessage m,
            Map<BucketId, List<DataFile>> bucketFiles,
            Set<ManifestEntry.FileId> available) {
        Set<String> replaced = new HashSet<>();
        for (DataFile f : m.deletedFiles()) {
            replaced.add(f.fileName());
        }
        List<DataFile> others =
                bucketFiles.getOrDefault(new BucketId(m.partition(), m.bucket()), List.of());
        for (DataFile added : m.newFiles()) {
            if (added.level() == 0 || added.keyRange() == null) {
                continue;
            }
            for (DataFile other : others) {
                if (other.level() != added.level()
                        || other.keyRange() == null
                        || replaced.contains(other.fileName())
                        || !available.contains(
                                new ManifestEntry.FileId(
                                        m.partition(), m.bucket(), other.fileName()))) {
                    continue;
                }
                if (keys.compare(added.keyRange().min(), other.keyRange().max()) <= 0
                        && keys.compare(other.keyRange().min(), added.keyRange().max()) <= 0) {
                    return String.format(
                            "its file %s at level %d of bucket %d of partition %s would overlap"
                                    + " data file %s of the same level in key range (another"
                                    + " commit compacted the bucket from other files)",
                            added.fileName(),
                            added.level(),
                            m.bucket(),
                            m.partition(),
                            other.fileName());
                }
            }
        }
        return null;
    }

    private static List<ManifestEntry.FileId> ids(CommitMessage m, List<DataFile> files) {
        return files.stream()
                .map(f -> new ManifestEntry.FileId(m.partition(), m.bucket(), f.fileName()))
                .toList();
    }

    private static ManifestEntry entry(FileKind kind, CommitMessage m, DataFile f) {
        return new ManifestEntry(kind, m.partition(), m.bucket(), m.totalBuckets(), f);
    }
}
