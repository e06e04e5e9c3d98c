package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileKind;
import dev.tarn.format.manifest.LiveFiles;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestFileMeta;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The live files of a table by (partition, bucket) as of one snapshot, as a long-running writer
 * sees them. Read in full once; {@link #advance} then moves it to the latest snapshot by reading
 * only the delta manifest of each newer snapshot, so a writer that follows its table at every
 * checkpoint reads a few small files, whatever the table's size. Not thread-safe.
 */
final class PublishedFiles {

    /** One bucket of one partition. */
    record Bucket(Partition partition, int bucket) {}

    /** What one snapshot changed in one bucket: file names added and deleted. */
    record Change(List<String> added, List<String> deleted) {}

    /** Told what each newer snapshot changed, bucket by bucket. */
    interface Listener {
        void changed(Bucket bucket, Change change);

        /** The snapshots in between are gone (expired): every bucket may have changed. */
        void reset();
    }

    private final Table table;
    private final SnapshotManager snapshots;
    private final Map<Bucket, Map<String, DataFile>> live = new HashMap<>();
    private long snapshotId;

    private PublishedFiles(Table table) {
        this.table = table;
        this.snapshots = table.snapshotManager();
    }

    /** The live files of the latest snapshot (none if the table has no snapshot). */
    static PublishedFiles ofLatest(Table table) {
        PublishedFiles files = new PublishedFiles(table);
        files.readLatest();
        return files;
    }

    /** The live files of one bucket, in no particular order. */
    List<DataFile> files(Bucket bucket) {
        Map<String, DataFile> files = live.get(bucket);
        return files == null ? List.of() : new ArrayList<>(files.values());
    }

    /** Whether {@code fileName} is live in {@code bucket}. */
    boolean isLive(Bucket bucket, String fileName) {
        Map<String, DataFile> files = live.get(bucket);
        return files != null && files.containsKey(fileName);
    }

    /** Moves to the latest snapshot, telling {@code listener} what each newer one changed. */
    void advance(Listener listener) {
        OptionalLong latest = snapshots.latestId();
        if (latest.isEmpty()) {
            return;
        }
        for (long id = snapshotId + 1; id <= latest.getAsLong(); id++) {
            if (!snapshots.exists(id)) {
                readLatest(); // Expired before this writer read it.
                listener.reset();
                return;
            }
            Snapshot snapshot = snapshots.snapshot(id);
            Map<Bucket, Change> changes = new LinkedHashMap<>();
            for (ManifestFileMeta meta : table.manifestList().read(snapshot.deltaManifestList())) {
                for (ManifestEntry e : table.manifestFile().read(meta.fileName())) {
                    Bucket bucket = new Bucket(e.partition(), e.bucket());
                    Change change =
                            changes.computeIfAbsent(
                                    bucket, b -> new Change(new ArrayList<>(), new ArrayList<>()));
                    Map<String, DataFile> files =
                            live.computeIfAbsent(bucket, b -> new LinkedHashMap<>());
                    if (e.kind() == FileKind.ADD) {
                        files.put(e.file().fileName(), e.file());
                        change.added().add(e.file().fileName());
                    } else {
                        files.remove(e.file().fileName());
                        change.deleted().add(e.file().fileName());
                    }
                }
            }
            snapshotId = id;
            changes.forEach(listener::changed);
        }
    }

    private void readLatest() {
        live.clear();
        OptionalLong latest = snapshots.latestId();
        snapshotId = latest.orElse(0);
        if (latest.isEmpty()) {
            return;
        }
        Snapshot snapshot = snapshots.snapshot(latest.getAsLong());
        for (ManifestEntry e :
                LiveFiles.of(table.manifestList(), table.manifestFile(), snapshot).values()) {
            live.computeIfAbsent(new Bucket(e.partition(), e.bucket()), b -> new LinkedHashMap<>())
                    .put(e.file().fileName(), e.file());
        }
    }
}
