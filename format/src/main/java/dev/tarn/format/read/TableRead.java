package dev.tarn.format.read;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The read seam's reader: turns a {@link Split} into rows of the projected type. The filter only
 * skips Parquet row groups; rows that survive are returned unfiltered and the engine filters them.
 */
public final class TableRead {

    private final Table table;
    private RowType readType;
    @Nullable private Predicate filter;

    public TableRead(Table table) {
        this.table = table;
        this.readType = table.schema().rowType();
    }

    /** Returns only these columns, in this order (a subset of the table's by name). */
    public TableRead withReadType(RowType readType) {
        this.readType = readType;
        return this;
    }

    public TableRead withFilter(@Nullable Predicate filter) {
        this.filter = filter;
        return this;
    }

    public RowType readType() {
        return readType;
    }

    public SplitReader open(Split split) {
        return new SplitReader(split);
    }

    /**
     * Rows of one split, file after file. {@link #next} may return the same object again with new
     * values: copy a row before keeping it past the next call.
     */
    public final class SplitReader implements Closeable {

        private final Split split;
        private final Path dir;
        private int fileIndex;
        private ParquetDataReader current;
        private long bytesRead;

        SplitReader(Split split) {
            this.split = split;
            this.dir = table.bucketPath(split.partition(), split.bucket());
        }

        @Nullable
        public RowData next() throws IOException {
            while (true) {
                if (current == null) {
                    if (fileIndex >= split.files().size()) {
                        return null;
                    }
                    current = openFile(split.files().get(fileIndex++));
                }
                RowData row = current.next();
                if (row != null) {
                    return row;
                }
                bytesRead += current.bytesRead();
                current.close();
                current = null;
            }
        }

        private ParquetDataReader openFile(DataFile file) throws IOException {
            Path path = new Path(dir, file.fileName());
            try {
                return ParquetDataReader.open(
                        table.io(),
                        path,
                        file.fileSize(),
                        table.schema().rowType(),
                        readType,
                        filter);
            } catch (IOException e) {
                if (table.io().exists(path)) {
                    throw e;
                }
                throw new FileNotFoundException(
                        String.format(
                                "Data file %s of table %s (snapshot %d) is missing. Restore the"
                                        + " file, or roll back to a snapshot that does not use it.",
                                path, table.name(), split.snapshotId()));
            }
        }

        /** Bytes read from data files so far (closed files, plus the open one). */
        public long bytesRead() {
            return bytesRead + (current == null ? 0 : current.bytesRead());
        }

        @Override
        public void close() throws IOException {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }
}
