package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetWriteOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The write seam, one per writer task: rows in, data files out. Rows are routed to a rolling file
 * writer per (partition, bucket); {@link #prepareCommit} closes the open files and returns what
 * they hold as {@link CommitMessage}s, which a {@link TableCommit} publishes. Not thread-safe.
 *
 * <p>Failure: files of a write that is closed without a commit are deleted by {@link #close}; files
 * already handed out by {@link #prepareCommit} belong to the caller from then on.
 */
public final class TableWrite implements AutoCloseable {

    private record BucketKey(Partition partition, int bucket) {}

    private final Table table;
    private final RowType rowType;
    private final RowRouter router;
    private final int totalBuckets;
    private final ParquetWriteOptions parquetOptions;
    private final Map<BucketKey, RollingFileWriter> writers = new LinkedHashMap<>();

    private BucketKey lastKey;
    private RollingFileWriter lastWriter;

    public TableWrite(Table table) {
        this.table = table;
        this.rowType = table.schema().rowType();
        this.totalBuckets = table.config().bucket();
        this.router = new RowRouter(table.schema(), totalBuckets);
        ParquetWriteOptions defaults = ParquetWriteOptions.defaults();
        this.parquetOptions =
                new ParquetWriteOptions(
                        table.config().compression(),
                        defaults.zstdLevel(),
                        table.config().sizes().rowGroupSize(),
                        defaults.pageSize(),
                        defaults.dictionary());
    }

    public void write(RowData row) throws IOException {
        Partition partition = router.partition(row);
        int bucket = router.bucket(row);
        RollingFileWriter writer;
        if (lastKey != null && lastKey.bucket == bucket && lastKey.partition == partition) {
            writer = lastWriter;
        } else {
            BucketKey key = new BucketKey(partition, bucket);
            writer = writers.get(key);
            if (writer == null) {
                writer =
                        new RollingFileWriter(
                                table.io(),
                                table.bucketPath(partition, bucket),
                                rowType,
                                parquetOptions,
                                table.config().sizes().targetFileSize(),
                                table.schema().id());
                writers.put(key, writer);
            }
            lastKey = key;
            lastWriter = writer;
        }
        writer.write(row);
    }

    /** Closes every open file and returns the files written since the last call. */
    public List<CommitMessage> prepareCommit() throws IOException {
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<BucketKey, RollingFileWriter> e : writers.entrySet()) {
            BucketKey key = e.getKey();
            messages.add(
                    CommitMessage.append(
                            key.partition, key.bucket, totalBuckets, e.getValue().finish()));
        }
        writers.clear();
        lastKey = null;
        lastWriter = null;
        messages.removeIf(CommitMessage::isEmpty);
        return messages;
    }

    /** Deletes every file written since the last {@link #prepareCommit}. */
    @Override
    public void close() {
        writers.values().forEach(RollingFileWriter::abort);
        writers.clear();
        lastKey = null;
        lastWriter = null;
    }
}
