package dev.tarn.format.maintenance;

import dev.tarn.format.iceberg.IcebergMaintenance;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Removes a table's oldest snapshots and every file only they referenced (SPEC.md, "Snapshot
 * expiration"). The snapshots kept are always the newest ones, a contiguous range from {@code end}
 * on, and a data file once deleted from a table never returns; so the files that only expired
 * snapshots hold are exactly those that the deltas of snapshots {@code earliest + 1 .. end} delete,
 * and the work grows with the expired snapshots' deltas, not with the table. An index file, too, is
 * named by a contiguous range of snapshots (a vector once replaced never returns), so those only
 * expired snapshots name are the ones their index manifests name and snapshot {@code end}'s does
 * not; each distinct index manifest is read once. Tags keep what their snapshots hold; consumers
 * keep the snapshots they still need.
 *
 * <p>Crash safety: the decision ({@code end}) is recorded first, then data and index files,
 * manifests and index manifests, manifest lists and the snapshot files (oldest first) are deleted,
 * then the Iceberg metadata's copies of the removed snapshots, if the table has Iceberg metadata. A
 * crash leaves every snapshot from {@code end} on readable, and the next run takes up the recorded
 * decision and finishes it. At most one expiration may run on a table at a time.
 */
final class SnapshotExpiration {

    /**
     * What to keep.
     *
     * @param retainMin the fewest snapshots kept (at least 1: the latest always stays)
     * @param retainMax the most snapshots kept, unless a consumer needs older ones
     * @param olderThanMillis snapshots committed before this may expire (within the counts)
     * @param limit the most snapshots this run removes
     * @param consumerExpiration consumers not updated for this long protect nothing; null: never
     */
    record Settings(
            int retainMin,
            int retainMax,
            long olderThanMillis,
            int limit,
            @Nullable Duration consumerExpiration) {}

    private final TableContext table;
    private final SnapshotManager snapshots;
    private final SnapshotFiles files;

    /** The oldest snapshot the last {@link #run} left (from the cache, no I/O), null before. */
    @Nullable private Snapshot oldestKept;

    /** The newest snapshot the last {@link #run} saw, 0 before. */
    private long latestSeen;

    SnapshotExpiration(TableContext table) {
        this.table = table;
        this.snapshots = table.snapshotManager();
        this.files = new SnapshotFiles(table);
    }

    /** Expires what {@code settings} lets go, then the tags whose retention has passed. */
    SnapshotLifecycle.ExpireResult run(Settings settings, long nowMillis) {
        try {
            SnapshotLifecycle.ExpireResult result = expireSnapshots(settings, nowMillis);
            int tags = new TagCleanup(table).expire(nowMillis);
            return new SnapshotLifecycle.ExpireResult(
                    table.name(),
                    result.snapshots(),
                    result.left(),
                    result.dataFiles(),
                    result.indexFiles(),
                    result.metadataFiles(),
                    tags);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot expire snapshots of table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    private SnapshotLifecycle.ExpireResult expireSnapshots(Settings settings, long nowMillis)
            throws IOException {
        OptionalLong latest = snapshots.latestId();
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong pending = snapshots.expiringBefore();
        if (latest.isEmpty() || earliest.isEmpty()) {
            return new SnapshotLifecycle.ExpireResult(table.name(), 0, 0, 0, 0, 0, 0);
        }
        long first = earliest.getAsLong();
        long last = latest.getAsLong();
        latestSeen = last;
        long end = end(first, last, settings, minConsumer(settings, nowMillis));
        if (pending.isPresent()) {
            // An interrupted run decided more: its snapshots may already miss files.
            end = Math.max(end, Math.min(pending.getAsLong(), last));
        }
        if (end <= first) {
            if (pending.isPresent()) {
                snapshots.clearExpiring();
            }
            oldestKept = snapshots.snapshot(first);
            return new SnapshotLifecycle.ExpireResult(
                    table.name(), 0, last - first + 1, 0, 0, 0, 0);
        }
        snapshots.markExpiring(end);
        return expireBefore(first, end, last);
    }

    /**
     * Removes the snapshots {@code first} to {@code end - 1} and the files only they hold, leaving
     * {@code end} to {@code last}.
     */
    private SnapshotLifecycle.ExpireResult expireBefore(long first, long end, long last)
            throws IOException {
        Snapshot kept = snapshots.snapshot(end);
        oldestKept = kept;
        Set<Long> tagged = new HashSet<>();
        Set<String> keepMetadata = new HashSet<>(files.metadata(kept, false));
        Set<String> keepIndex = new HashSet<>(files.indexFiles(kept, false));
        List<Tag> olderTags =
                table.tags().list().stream().filter(t -> t.snapshot().id() < end).toList();
        for (Tag tag : olderTags) {
            tagged.add(tag.snapshot().id());
            keepMetadata.addAll(files.metadata(tag.snapshot(), false));
            keepIndex.addAll(files.indexFiles(tag.snapshot(), false));
        }
        Map<FileId, ManifestEntry> data = new LinkedHashMap<>();
        Set<String> index = new HashSet<>();
        Set<String> metadata = new HashSet<>();
        for (long id = first; id <= end; id++) {
            Snapshot snapshot = id == end ? kept : snapshots.snapshot(id);
            boolean lenient = id < end;
            if (id > first) {
                SnapshotFiles.addAll(data, files.delta(snapshot, FileKind.DELETE, lenient));
            }
            if (id < end) {
                if (!tagged.contains(id)) {
                    SnapshotFiles.addAll(data, files.changelog(snapshot, true));
                }
                metadata.addAll(files.metadata(snapshot, true));
                index.addAll(files.indexFiles(snapshot, true));
            }
        }
        if (!data.isEmpty()) {
            for (Tag tag : olderTags) {
                data.keySet().removeAll(files.live(tag.snapshot()).keySet());
            }
        }
        metadata.removeAll(keepMetadata);
        index.removeAll(keepIndex);
        int dataFiles = files.deleteData(data.values());
        int indexFiles = files.deleteIndexFiles(index);
        int metadataFiles = files.deleteMetadata(metadata);
        int removed = 0;
        for (long id = first; id < end; id++) {
            removed += snapshots.delete(id) ? 1 : 0;
        }
        snapshots.writeEarliestHint(end);
        // Before the decision is cleared, so that a crash leaves it for the next run to finish.
        metadataFiles += IcebergMaintenance.afterExpire(table, end);
        snapshots.clearExpiring();
        return new SnapshotLifecycle.ExpireResult(
                table.name(), removed, last - end + 1, dataFiles, indexFiles, metadataFiles, 0);
    }

    /**
     * The oldest snapshot the last {@link #run} left, read while it ran (the table's snapshots as
     * that run saw them), or empty if it found no snapshot or failed before it knew.
     */
    Optional<Snapshot> oldestKept() {
        return Optional.ofNullable(oldestKept);
    }

    /** The newest snapshot id the last {@link #run} saw, 0 if it saw none. */
    long latestSeen() {
        return latestSeen;
    }

    /** The first snapshot kept, as Apache Paimon's expiration decides it. */
    private long end(long first, long last, Settings settings, long minConsumer) {
        long from = Math.max(last - settings.retainMax() + 1, first);
        long to = last - settings.retainMin() + 1;
        to = Math.min(to, minConsumer);
        to = Math.min(to, first + settings.limit());
        for (long id = from; id < to; id++) {
            if (snapshots.snapshot(id).commit().timeMillis() >= settings.olderThanMillis()) {
                return Math.max(id, first);
            }
        }
        return Math.max(to, first);
    }

    /**
     * The first snapshot a live consumer needs, or {@code Long.MAX_VALUE}. A consumer not updated
     * for {@code consumer.expiration-time} is retired: its file is deleted (a reader that comes
     * back with its id records itself anew, or finds its snapshot expired).
     */
    private long minConsumer(Settings settings, long nowMillis) throws IOException {
        long min = Long.MAX_VALUE;
        Consumers consumers = new Consumers(table.io(), table.paths(), table.name());
        for (Consumers.Consumer c : consumers.all()) {
            Duration expiry = settings.consumerExpiration();
            if (expiry == null || c.updatedMillis() + expiry.toMillis() >= nowMillis) {
                min = Math.min(min, c.nextSnapshotId());
            } else {
                consumers.delete(c.id());
            }
        }
        return min;
    }
}
