package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * An append table's bucket: rows go into rolling data files; a commit adds the files, and nothing
 * is ever replaced (compaction of small files comes with table maintenance).
 */
final class AppendBucketWriter implements BucketWriter {

    private final TableContext table;
    private final BucketId bucket;
    private final RollingFileWriter files;

    AppendBucketWriter(TableContext table, BucketId bucket, ParquetDataWriter.Options options) {
        this.table = table;
        this.bucket = bucket;
        this.files =
                new RollingFileWriter(
                        table.io(),
                        table.bucketPath(bucket),
                        table.schema().rowType(),
                        options,
                        table.config().sizes().targetFileSize(),
                        table.schema().id());
    }

    /** The append kind's {@link BucketWriters}: nothing is shared between buckets. */
    static BucketWriters factory(TableContext table, ParquetDataWriter.Options options) {
        return bucket -> new AppendBucketWriter(table, bucket, options);
    }

    @Override
    public void write(RowData row) throws IOException {
        files.write(row);
    }

    @Override
    public List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException {
        CommitMessage message =
                CommitMessage.append(
                        bucket.partition(),
                        bucket.bucket(),
                        table.config().bucket(),
                        files.finish());
        return message.isEmpty() ? List.of() : List.of(message);
    }

    @Override
    public void compactFully() {
        throw new UnsupportedOperationException(
                "Table " + table.name() + " has no primary key; only its buckets compact");
    }

    @Override
    public void close() {
        files.abort();
    }
}
