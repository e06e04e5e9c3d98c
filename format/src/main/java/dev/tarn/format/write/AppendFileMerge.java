package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Rewrites some files of one bucket of an append table into files of about {@code
 * target-file-size}: the rows as they are, file after file (an append table keeps no order within a
 * bucket). The result replaces the inputs in a COMPACT snapshot that changes no row. May run on any
 * thread; on failure or interruption it deletes what it wrote.
 */
final class AppendFileMerge implements Callable<List<DataFile>> {

    /** Rows decoded at a time; as a scan reads them. */
    private static final int BATCH_ROWS = 8192;

    private final TableContext table;
    private final BucketId bucket;
    private final ParquetDataWriter.Options options;
    private final List<DataFile> inputs;

    AppendFileMerge(
            TableContext table,
            BucketId bucket,
            ParquetDataWriter.Options options,
            List<DataFile> inputs) {
        this.table = table;
        this.bucket = bucket;
        this.options = options;
        this.inputs = List.copyOf(inputs);
    }

    List<DataFile> inputs() {
        return inputs;
    }

    @Override
    public List<DataFile> call() throws IOException {
        Path dir = table.bucketPath(bucket);
        RowType rowType = table.schema().rowType();
        DataFileOpener opener = new DataFileOpener(table, dir, rowType, null, "compaction", true);
        RollingFileWriter out =
                new RollingFileWriter(
                        table.io(),
                        dir,
                        rowType,
                        options,
                        table.config().sizes().targetFileSize(),
                        table.schema().id());
        try {
            for (DataFile input : inputs) {
                try (ParquetDataReader rows = opener.open(input, rowType, BATCH_ROWS)) {
                    RowData row;
                    while ((row = rows.next()) != null) {
                        if (Thread.currentThread().isInterrupted()) {
                            throw new IOException("Merge of bucket " + dir + " was cancelled");
                        }
                        out.write(row);
                    }
                }
            }
            return out.finish();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /** Whether one of the inputs no longer exists (another writer replaced it, then expired). */
    boolean anyInputMissing() throws IOException {
        Path dir = table.bucketPath(bucket);
        for (DataFile f : inputs) {
            if (!table.io().exists(new Path(dir, f.fileName()))) {
                return true;
            }
        }
        return false;
    }
}
