package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.table.DataFileOpener;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The rows of a split's files as stored, file after file in split order, each without the rows its
 * deletion vector deletes (and, if asked, without the rows the opener's filter surely drops within
 * each decoded batch): an append table's rows, a primary-key bucket's read without merging ({@link
 * Split.Kind#SNAPSHOT_BY_FILE}), or the changes of changelog files. Knows its position (file, rows
 * returned from it) and seeks to one without reading the files before it, or the row groups of the
 * file it skips whole.
 */
final class FileSplitReader implements TableRead.SplitReader {

    private final Split split;
    private final DataFileOpener opener;
    private final RowType readType;

    /** Whether each file's reader drops the rows the opener's filter surely does not match. */
    private final boolean filterRows;

    private int fileIndex;
    @Nullable private ParquetDataReader current;
    private long bytesRead;
    private long rowsInFile;

    FileSplitReader(Split split, DataFileOpener opener, RowType readType, boolean filterRows) {
        this.split = split;
        this.opener = opener;
        this.readType = readType;
        this.filterRows = filterRows;
    }

    @Override
    @Nullable
    public RowData next() throws IOException {
        while (true) {
            if (current == null) {
                if (fileIndex >= split.files().size()) {
                    return null;
                }
                current = open(fileIndex++);
                rowsInFile = 0;
            }
            RowData row = current.next();
            if (row != null) {
                rowsInFile++;
                return row;
            }
            bytesRead += current.bytesRead();
            current.close();
            current = null;
        }
    }

    private ParquetDataReader open(int index) throws IOException {
        DataFile file = split.files().get(index);
        ParquetDataReader reader =
                opener.open(file, readType, TableRead.SCAN_BATCH_ROWS, split.vector(file));
        return filterRows ? reader.filterRows() : reader;
    }

    @Override
    public long bytesRead() {
        return bytesRead + (current == null ? 0 : current.bytesRead());
    }

    @Override
    public int buffered() {
        return current == null ? 0 : current.buffered();
    }

    @Override
    public int transferBuffered(BinaryRowBatch out, int max) {
        int rows = current == null ? 0 : current.transferBuffered(out, max);
        rowsInFile += rows;
        return rows;
    }

    @Override
    public int fileIndex() {
        return Math.max(0, fileIndex - 1);
    }

    @Override
    public long rowsInFile() {
        return rowsInFile;
    }

    @Override
    public void seek(int file, long rows) throws IOException {
        if (file >= split.files().size()) {
            fileIndex = split.files().size();
            return;
        }
        fileIndex = file;
        current = open(fileIndex++);
        rowsInFile = current.skip(rows);
    }

    @Override
    public void close() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
