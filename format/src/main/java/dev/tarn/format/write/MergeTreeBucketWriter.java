package dev.tarn.format.write;

import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.VectorChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * A primary-key table's bucket within a table write: its LSM tree ({@link BucketTreeWriter}) and
 * the ledger of what it handed out and has not yet seen published ({@link BucketLedger}). Writes
 * count against the write buffer budget the buckets of the table write share.
 */
final class MergeTreeBucketWriter implements BucketWriter {

    private final BucketId bucket;
    private final BucketTreeWriter tree;
    private final MergeTreeBucketWriters shared;
    private final BucketLedger ledger = new BucketLedger();

    MergeTreeBucketWriter(BucketId bucket, BucketTreeWriter tree, MergeTreeBucketWriters shared) {
        this.bucket = bucket;
        this.tree = tree;
        this.shared = shared;
    }

    BucketId bucket() {
        return bucket;
    }

    BucketTreeWriter tree() {
        return tree;
    }

    BucketLedger ledger() {
        return ledger;
    }

    @Override
    public void write(RowData row) throws IOException {
        long before = tree.memoryUsed();
        tree.write(row);
        shared.memoryChanged(tree.memoryUsed() - before);
    }

    @Override
    public List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException {
        BucketTreeWriter.Changes changes = tree.prepareCommit(endOfInput || shared.overwrite());
        int totalBuckets = shared.totalBuckets();
        List<CommitMessage> messages = new ArrayList<>(2);
        if (shared.overwrite()) {
            // Nothing is published before an overwrite's commit: only the surviving files count.
            List<DataFile> files = new ArrayList<>(changes.newFiles());
            files.addAll(changes.compactAfter());
            files.removeAll(changes.compactBefore());
            List<DataFile> changelog = new ArrayList<>(changes.changelogFiles());
            changelog.addAll(changes.compactChangelog());
            // Vectors too: of the surviving files, made on none.
            java.util.Map<String, VectorChange> last = new java.util.HashMap<>();
            changes.vectors().forEach(c -> last.put(c.dataFile(), c));
            changes.compactVectors().forEach(c -> last.put(c.dataFile(), c));
            List<VectorChange> vectors = new ArrayList<>();
            for (DataFile f : files) {
                VectorChange c = last.get(f.fileName());
                if (c != null && c.after() != null) {
                    vectors.add(new VectorChange(f.fileName(), null, c.after()));
                }
            }
            messages.add(
                    CommitMessage.append(bucket.partition(), bucket.bucket(), totalBuckets, files)
                            .withChangelog(changelog)
                            .withVectors(vectors));
        } else {
            ledger.handedOut(changes);
            messages.add(
                    CommitMessage.append(
                                    bucket.partition(),
                                    bucket.bucket(),
                                    totalBuckets,
                                    changes.newFiles())
                            .withChangelog(changes.changelogFiles())
                            .withVectors(changes.vectors()));
            // A full compaction's changelog is published with it, or deleted with it if dropped.
            messages.add(
                    new CommitMessage(
                            bucket.partition(),
                            bucket.bucket(),
                            totalBuckets,
                            changes.compactAfter(),
                            changes.compactBefore(),
                            changes.compactChangelog(),
                            changes.compactVectors()));
        }
        messages.removeIf(CommitMessage::isEmpty);
        return messages;
    }

    @Override
    public void compactFully() throws IOException {
        tree.compactFully();
    }

    @Override
    public void close() {
        tree.close();
    }
}
