package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * An append table's bucket: rows go into rolling data files, and a commit adds them. A streaming
 * writer also merges the small files (below {@code target-file-size}) it wrote itself: once at
 * least {@code compaction.min.file-num} of them are published and still live, it merges up to
 * {@code compaction.max.file-num} on a background thread ({@link AppendFileMerge}) and hands the
 * result out at the next checkpoint as a compaction, which the commit publishes as a COMPACT
 * snapshot (dropped if another writer or a compaction job replaced an input first). Only its own
 * files: several writers of an unbucketed table write one bucket, and each merges what it wrote.
 * {@link #compactFully} merges every small live file of the bucket, for a compaction job.
 */
final class AppendBucketWriter implements BucketWriter {

    private final BucketId bucket;
    private final AppendBucketWriters shared;
    private final TableContext table;
    private final RollingFileWriter files;

    /** Files this writer handed out (added or merged), until the table no longer has them. */
    private final Map<String, DataFile> own = new LinkedHashMap<>();

    /** Names in {@link #own} that a snapshot showed live: once gone from it, they are forgotten. */
    private final Set<String> seenLive = new HashSet<>();

    /** Finished merges not yet handed out. */
    private final List<CommitMessage> merged = new ArrayList<>();

    @Nullable private AppendFileMerge running;
    @Nullable private Future<List<DataFile>> result;

    AppendBucketWriter(BucketId bucket, AppendBucketWriters shared) {
        this.bucket = bucket;
        this.shared = shared;
        this.table = shared.table();
        this.files =
                new RollingFileWriter(
                        table.io(),
                        table.bucketPath(bucket),
                        table.schema().rowType(),
                        shared.options(),
                        table.config().sizes().targetFileSize(),
                        table.schema().id());
    }

    @Override
    public void write(RowData row) throws IOException {
        files.write(row);
    }

    @Override
    public List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException {
        List<CommitMessage> messages = new ArrayList<>();
        List<DataFile> added = files.finish();
        if (!added.isEmpty()) {
            messages.add(
                    CommitMessage.append(
                            bucket.partition(), bucket.bucket(), table.config().bucket(), added));
            added.forEach(f -> own.put(f.fileName(), f));
        }
        collect(endOfInput);
        for (CommitMessage m : merged) {
            m.deletedFiles().forEach(f -> own.remove(f.fileName()));
            m.newFiles().forEach(f -> own.put(f.fileName(), f));
        }
        messages.addAll(merged);
        merged.clear();
        if (shared.merging()) {
            startMerge();
        }
        return messages;
    }

    /** Starts a merge of this writer's small live files if none runs and enough are there. */
    private void startMerge() {
        if (result != null) {
            return;
        }
        PublishedFiles published = shared.published();
        long target = table.config().sizes().targetFileSize();
        List<DataFile> small = new ArrayList<>();
        for (DataFile f : List.copyOf(own.values())) {
            if (published.isLive(bucket, f.fileName())) {
                seenLive.add(f.fileName());
                if (f.fileSize() < target) {
                    small.add(f);
                }
            } else if (seenLive.remove(f.fileName())) {
                own.remove(f.fileName()); // Replaced by another writer or a compaction job.
            }
        }
        if (small.size() < shared.settings().minFileNum()) {
            return;
        }
        int take = Math.min(small.size(), shared.settings().maxFileNum());
        running = new AppendFileMerge(table, bucket, shared.options(), small.subList(0, take));
        result = shared.merges().submit(running);
    }

    /** Takes in a finished merge; with {@code block}, waits for a running one first. */
    private void collect(boolean block) throws IOException {
        if (result == null || (!block && !result.isDone())) {
            return;
        }
        AppendFileMerge merge = running;
        Future<List<DataFile>> done = result;
        running = null;
        result = null;
        try {
            merged.add(
                    new CommitMessage(
                            bucket.partition(),
                            bucket.bucket(),
                            table.config().bucket(),
                            done.get(),
                            merge.inputs()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while merging " + bucket);
        } catch (ExecutionException e) {
            if (!merge.anyInputMissing()) {
                throw new IOException(
                        "Merge of small files of table "
                                + table.name()
                                + " in bucket "
                                + table.bucketPath(bucket)
                                + " failed: "
                                + e.getCause().getMessage(),
                        e.getCause());
            }
            // Another writer replaced an input and it expired since: nothing to merge there.
            merge.inputs().forEach(f -> own.remove(f.fileName()));
        }
    }

    /**
     * Merges every small live file of the bucket (at least two) as this table write first read the
     * table, now; handed out with the next commit.
     */
    @Override
    public void compactFully() throws IOException {
        long target = table.config().sizes().targetFileSize();
        List<DataFile> small =
                shared.published().files(bucket).stream()
                        .filter(f -> f.fileSize() < target)
                        .toList();
        if (small.size() < 2) {
            return;
        }
        AppendFileMerge merge = new AppendFileMerge(table, bucket, shared.options(), small);
        merged.add(
                new CommitMessage(
                        bucket.partition(),
                        bucket.bucket(),
                        table.config().bucket(),
                        merge.call(),
                        merge.inputs()));
    }

    @Override
    public void close() {
        files.abort();
        if (result != null) {
            result.cancel(true);
            try {
                DataFiles.deleteUnreferenced(table.io(), table.bucketPath(bucket), result.get());
            } catch (CancellationException | ExecutionException | InterruptedException ignored) {
                // A cancelled or failed merge deletes its own files.
            }
            result = null;
            running = null;
        }
        for (CommitMessage m : merged) {
            DataFiles.deleteUnreferenced(table.io(), table.bucketPath(bucket), m.newFiles());
        }
        merged.clear();
    }
}
