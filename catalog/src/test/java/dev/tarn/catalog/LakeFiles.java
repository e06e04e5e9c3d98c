package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.snapshot.Snapshot;
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
        for (BucketFile f : latestFiles()) {
            files.merge(f.partition().values().toString(), 1, Integer::sum);
        }
        return files;
    }

    /** Live files of the latest snapshot by bucket ({@code [a]/0}). */
    Map<String, Integer> filesByBucket() {
        Map<String, Integer> files = new TreeMap<>();
        for (BucketFile f : latestFiles()) {
            files.merge(f.partition().values() + "/" + f.bucket(), 1, Integer::sum);
        }
        return files;
    }

    private List<BucketFile> latestFiles() {
        TableMetadata metadata = table.metadata();
        return metadata.files().liveFiles(metadata.latestSnapshot().orElseThrow());
    }

    int liveFiles() {
        return filesByPartition().values().stream().mapToInt(Integer::intValue).sum();
    }

    List<Snapshot> snapshots() {
        TableMetadata manager = table.metadata();
        List<Snapshot> all = new ArrayList<>();
        for (long id = manager.earliestSnapshotId().orElse(1);
                id <= manager.latestSnapshotId().orElse(0);
                id++) {
            all.add(manager.snapshot(id));
        }
        return all;
    }
}
