package dev.tarn.format.read;

import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.Closeable;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The read seam's reader: turns a {@link Split} into rows of the projected type. The filter only
 * skips Parquet row groups; rows that survive are returned unfiltered and the engine filters them.
 * A split of a primary-key table is merged on read ({@link MergeTreeSplitReader}), pruned by the
 * filter's key columns only.
 */
public final class TableRead {

    private final TableContext table;
    private RowType readType;
    @Nullable private Predicate filter;

    public TableRead(TableContext table) {
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
        return switch (table.kind()) {
            case APPEND -> new FileSplitReader(split);
            case PRIMARY_KEY ->
                    new MergeTreeSplitReader(
                            table,
                            split,
                            readType,
                            Predicate.onlyFields(
                                    filter,
                                    table.schema().fieldIndexes(table.schema().primaryKeys())));
        };
    }

    /**
     * Rows of one split. {@link #next} may return the same object again with new values: copy a row
     * before keeping it past the next call.
     */
    public interface SplitReader extends Closeable {

        /** The next row, or null after the last. */
        @Nullable
        RowData next() throws IOException;

        /** Bytes read from data files so far. */
        long bytesRead();
    }

    /** The rows of an append table's split, file after file. */
    private final class FileSplitReader implements SplitReader {

        private final Split split;
        private int fileIndex;
        private ParquetDataReader current;
        private long bytesRead;

        private final DataFileOpener opener;

        FileSplitReader(Split split) {
            this.split = split;
            this.opener =
                    new DataFileOpener(
                            table,
                            table.bucketPath(split.partition(), split.bucket()),
                            table.schema().rowType(),
                            filter,
                            "snapshot " + split.snapshotId());
        }

        @Override
        @Nullable
        public RowData next() throws IOException {
            while (true) {
                if (current == null) {
                    if (fileIndex >= split.files().size()) {
                        return null;
                    }
                    current = opener.open(split.files().get(fileIndex++), readType);
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

        @Override
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
