package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import javax.annotation.Nullable;

/**
 * The live files of a table by (partition, bucket) as of one snapshot, as a long-running writer
 * sees them. Read in full once; {@link #advance} then moves it to the latest snapshot by reading
 * only the delta manifest of each newer snapshot, so a writer that follows its table at every
 * checkpoint reads a few small files, whatever the table's size. Not thread-safe.
 */
final class PublishedFiles {

    /** What one snapshot changed in one bucket: file names added and deleted. */
    record Change(List<String> added, List<String> deleted) {}

    /** Told what each newer snapshot changed, bucket by bucket. */
    interface Listener {
        void changed(BucketId bucket, Change change);

        /** The snapshots in between are gone (expired): every bucket may have changed. */
        void reset();
    }

    private final TableContext table;
    private final SnapshotReader reader;
    private final Map<BucketId, Map<String, DataFile>> live = new HashMap<>();
    private long snapshotId;
    @Nullable private Snapshot seen;

    /** The deletion vectors of {@link #seen} by bucket and data file, once asked for. */
    @Nullable private Map<BucketId, Map<String, DeletionFile>> vectors;

    private PublishedFiles(TableContext table) {
        this.table = table;
        this.reader = table.snapshotReader();
    }

    /** The live files of the latest snapshot (none if the table has no snapshot). */
    static PublishedFiles ofLatest(TableContext table) {
        PublishedFiles files = new PublishedFiles(table);
        files.readLatest();
        return files;
    }

    /** The live files of one bucket, in no particular order. */
    List<DataFile> files(BucketId bucket) {
        Map<String, DataFile> files = live.get(bucket);
        return files == null ? List.of() : new ArrayList<>(files.values());
    }

    /**
     * The deletion vectors of one bucket's live files, by data file name (SPEC.md, "Deletion
     * vectors"); read once per snapshot seen.
     */
    Map<String, DeletionFile> vectors(BucketId bucket) {
        if (seen == null) {
            return Map.of();
        }
        if (vectors == null) {
            vectors = new HashMap<>();
            for (IndexEntry e : reader.indexEntries(seen)) {
                vectors.computeIfAbsent(
                                new BucketId(e.partition(), e.bucket()), b -> new HashMap<>())
                        .put(e.dataFile(), e.vector());
            }
        }
        return vectors.getOrDefault(bucket, Map.of());
    }

    /** Whether {@code fileName} is live in {@code bucket}. */
    boolean isLive(BucketId bucket, String fileName) {
        Map<String, DataFile> files = live.get(bucket);
        return files != null && files.containsKey(fileName);
    }

    /** Moves to the latest snapshot, telling {@code listener} what each newer one changed. */
    void advance(Listener listener) {
        OptionalLong latest = table.snapshotManager().latestId();
        checkNotRolledBack(latest);
        if (latest.isEmpty()) {
            return;
        }
        for (long id = snapshotId + 1; id <= latest.getAsLong(); id++) {
            Snapshot snapshot;
            try {
                snapshot = reader.snapshot(id);
            } catch (IllegalArgumentException e) {
                if (reader.exists(id)) {
                    throw e;
                }
                readLatest(); // Expired before this writer read it.
                listener.reset();
                return;
            }
            Map<BucketId, Change> changes = new LinkedHashMap<>();
            for (ManifestEntry e : reader.delta(snapshot).entries()) {
                Change change =
                        changes.computeIfAbsent(
                                e.bucketId(),
                                b -> new Change(new ArrayList<>(), new ArrayList<>()));
                Map<String, DataFile> files =
                        live.computeIfAbsent(e.bucketId(), b -> new LinkedHashMap<>());
                if (e.kind() == FileKind.ADD) {
                    files.put(e.file().fileName(), e.file());
                    change.added().add(e.file().fileName());
                } else {
                    files.remove(e.file().fileName());
                    change.deleted().add(e.file().fileName());
                }
            }
            snapshotId = id;
            seen = snapshot;
            vectors = null;
            changes.forEach(listener::changed);
        }
    }

    /**
     * Fails if the table went back under this view (SPEC.md, "Rollback"): its latest snapshot is
     * older than the one seen last, or that snapshot was removed and its id committed again. A
     * writer building on the view would otherwise compact files that are gone.
     */
    private void checkNotRolledBack(OptionalLong latest) {
        if (seen == null) {
            return;
        }
        if (latest.orElse(0) < snapshotId) {
            throw rolledBack(
                    latest.isEmpty()
                            ? "the table has no snapshot now"
                            : "the latest snapshot is now " + latest.getAsLong());
        }
        Optional<Snapshot> now = table.snapshotManager().reread(snapshotId);
        if (now.isPresent() && !now.get().equals(seen)) {
            throw rolledBack("snapshot " + snapshotId + " was removed and its id committed again");
        }
    }

    private IllegalStateException rolledBack(String how) {
        return new IllegalStateException(
                String.format(
                        "Table %s was rolled back under this writer: it had seen snapshot %d, and"
                                + " %s. Restart the job to write on the table as it is now",
                        table.name(), snapshotId, how));
    }

    private void readLatest() {
        live.clear();
        vectors = null;
        Optional<Snapshot> latest = reader.latest();
        snapshotId = latest.map(Snapshot::id).orElse(0L);
        seen = latest.orElse(null);
        if (latest.isPresent()) {
            reader.filesByBucket(latest.get())
                    .forEach(
                            (bucket, entries) -> {
                                Map<String, DataFile> files = new LinkedHashMap<>();
                                entries.forEach(e -> files.put(e.file().fileName(), e.file()));
                                live.put(bucket, files);
                            });
        }
    }
}
