package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.CompactionOptions;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.annotation.Nullable;

/**
 * The append kind's {@link BucketWriters}: what the buckets of one {@link TableWrite} of an append
 * table share so that a streaming writer merges its own small files (unless {@code write-only}):
 * one background thread that runs the merges, and the table's live files, followed from snapshot to
 * snapshot at each checkpoint, which tell a bucket which of its files are published and still live.
 */
final class AppendBucketWriters implements BucketWriters {

    private final TableContext table;
    private final ParquetDataWriter.Options options;
    private final CompactionOptions.Settings settings;
    private final boolean overwrite;
    @Nullable private PublishedFiles published;
    @Nullable private ExecutorService merges;
    private boolean checkpoint;

    /**
     * @param overwrite the commit replaces the table's files: nothing of its own is published
     *     before it, so there is nothing to merge
     */
    AppendBucketWriters(TableContext table, ParquetDataWriter.Options options, boolean overwrite) {
        this.table = table;
        this.options = options;
        this.settings = table.config().compaction();
        this.overwrite = overwrite;
    }

    TableContext table() {
        return table;
    }

    ParquetDataWriter.Options options() {
        return options;
    }

    CompactionOptions.Settings settings() {
        return settings;
    }

    @Override
    public BucketWriter open(BucketId bucket) {
        return new AppendBucketWriter(bucket, this);
    }

    /** At a checkpoint of a writer that merges: moves the view of the table to its latest. */
    @Override
    public void beforeCommit(boolean endOfInput) {
        checkpoint = !endOfInput && !overwrite && !settings.writeOnly();
        if (checkpoint) {
            published().advance(NO_LISTENER);
        }
    }

    /** Whether the buckets may start merges at this commit: a checkpoint, not write-only. */
    boolean merging() {
        return checkpoint;
    }

    /** The table's live files as of the last checkpoint (read in full at the first). */
    PublishedFiles published() {
        if (published == null) {
            published = PublishedFiles.ofLatest(table);
        }
        return published;
    }

    /** The thread merges run on, started at the first merge. */
    ExecutorService merges() {
        if (merges == null) {
            merges =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "tarn-merge-" + table.name());
                                t.setDaemon(true);
                                return t;
                            });
        }
        return merges;
    }

    @Override
    public void afterCommit(boolean endOfInput) throws IOException {}

    @Override
    public void close() {
        if (merges != null) {
            merges.shutdownNow();
            merges = null;
        }
    }

    private static final PublishedFiles.Listener NO_LISTENER =
            new PublishedFiles.Listener() {
                @Override
                public void changed(BucketId bucket, PublishedFiles.Change change) {}

                @Override
                public void reset() {}
            };
}
