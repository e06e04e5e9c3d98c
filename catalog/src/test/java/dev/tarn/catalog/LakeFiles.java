package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the latest snapshot of a table in a test warehouse holds, for the compaction ITCases: its
 * live files by partition, and the snapshots of its history.
 */
final class LakeFiles {

    private final Table table;

    LakeFiles(Path warehouse, String name) {
        this.table =
                Table.load(
                        FileIO.flinkFileSystems(),
                        new org.apache.flink.core.fs.Path(warehouse.toUri() + "/db.db/" + name),
                        "db." + name);
    }

    /** Live files of the latest snapshot by partition text ({@code [a]}), all buckets summed. */
    Map<String, Integer> filesByPartition() {
        Map<String, Integer> files = new TreeMap<>();
        Snapshot latest = table.snapshotReader().latest().orElseThrow();
        for (Map.Entry<BucketId, List<ManifestEntry>> e :
                table.snapshotReader().filesByBucket(latest).entrySet()) {
            files.merge(
                    e.getKey().partition().values().toString(), e.getValue().size(), Integer::sum);
        }
        return files;
    }

    /** Live files of the latest snapshot by bucket ({@code [a]/0}). */
    Map<String, Integer> filesByBucket() {
        Map<String, Integer> files = new TreeMap<>();
        Snapshot latest = table.snapshotReader().latest().orElseThrow();
        table.snapshotReader()
                .filesByBucket(latest)
                .forEach(
                        (b, entries) ->
                                files.put(
                                        b.partition().values() + "/" + b.bucket(), entries.size()));
        return files;
    }

    int liveFiles() {
        return filesByPartition().values().stream().mapToInt(Integer::intValue).sum();
    }

    List<Snapshot> snapshots() {
        SnapshotManager manager = table.snapshotManager();
        List<Snapshot> all = new ArrayList<>();
        for (long id = manager.earliestId().orElse(1); id <= manager.latestId().orElse(0); id++) {
            all.add(manager.snapshot(id));
        }
        return all;
    }
}
