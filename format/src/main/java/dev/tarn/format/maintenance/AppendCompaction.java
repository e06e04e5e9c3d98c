package dev.tarn.format.maintenance;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;

/**
 * Compacts an append table: in each bucket, the files smaller than {@code target-file-size} (when
 * there are two or more) are rewritten into files of about that size, each bucket's result one
 * compaction of the same commit. Rows are copied as they are; an append table keeps no order within
 * a bucket, and no row changes, so a streaming read skips the COMPACT snapshot.
 */
final class AppendCompaction {

    private AppendCompaction() {}

    /** The compactions of {@code snapshot}'s buckets, written and not committed. */
    static List<CommitMessage> compact(TableContext table, Snapshot snapshot) throws IOException {
        long target = table.config().sizes().targetFileSize();
        List<CommitMessage> compactions = new ArrayList<>();
        for (Map.Entry<BucketId, List<ManifestEntry>> bucket :
                table.snapshotReader().filesByBucket(snapshot).entrySet()) {
            List<ManifestEntry> small =
                    bucket.getValue().stream().filter(e -> e.file().fileSize() < target).toList();
            if (small.size() < 2) {
                continue;
            }
            compactions.add(rewrite(table, snapshot, small));
        }
        return compactions;
    }

    private static CommitMessage rewrite(
            TableContext table, Snapshot snapshot, List<ManifestEntry> files) throws IOException {
        ManifestEntry first = files.get(0);
        List<DataFile> inputs = files.stream().map(ManifestEntry::file).toList();
        Split split =
                new Split(
                        snapshot.id(),
                        first.partition(),
                        first.bucket(),
                        first.totalBuckets(),
                        inputs);
        List<DataFile> outputs = new ArrayList<>();
        try (TableWrite write = new TableWrite(table, false);
                TableRead.SplitReader rows = new TableRead(table).open(split)) {
            RowData row;
            while ((row = rows.next()) != null) {
                write.write(row);
            }
            for (CommitMessage m : write.prepareCommit(true)) {
                outputs.addAll(m.newFiles());
            }
        }
        return new CommitMessage(
                first.partition(), first.bucket(), first.totalBuckets(), outputs, inputs);
    }
}
