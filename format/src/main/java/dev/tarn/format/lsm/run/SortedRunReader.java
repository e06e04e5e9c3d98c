package dev.tarn.format.lsm.run;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * The changes of one sorted run, file after file: the files are given in key order and never
 * overlap, so the stream is in key order. Opens one file at a time. A returned change's row is
 * reused by the next {@code next()}; I/O errors surface as {@link UncheckedIOException}.
 */
public final class SortedRunReader implements Iterator<KeyValue>, Closeable {

    /** Opens a data file of the run for reading all columns of its file type. */
    @FunctionalInterface
    public interface FileOpener {
        ParquetDataReader open(DataFile file) throws IOException;
    }

    private final List<DataFile> files;
    private final FileOpener opener;
    private final KeyValueSchema schema;
    private int fileIndex;
    @Nullable private ParquetDataReader current;
    @Nullable private RowData next;
    private long bytesRead;

    public SortedRunReader(List<DataFile> files, FileOpener opener, KeyValueSchema schema) {
        this.files = files;
        this.opener = opener;
        this.schema = schema;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        try {
            while (true) {
                if (current == null) {
                    if (fileIndex >= files.size()) {
                        return false;
                    }
                    current = opener.open(files.get(fileIndex++));
                }
                next = current.next();
                if (next != null) {
                    return true;
                }
                closeCurrent();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * The next file row as read, without making a change of it, or null at the end of the run: for
     * a caller that opened the files with a read type of its own.
     */
    @Nullable
    /** Rows of the open file decoded and not returned yet. */
    int buffered() {
        return current == null ? 0 : current.buffered();
    }

    RowData nextRow() {
        if (!hasNext()) {
            return null;
        }
        RowData row = next;
        next = null;
        return row;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("All " + files.size() + " files of the run are read");
        }
        RowData row = next;
        next = null;
        return schema.fromFileRow(row);
    }

    /** Bytes read from data files so far. */
    long bytesRead() {
        return bytesRead + (current == null ? 0 : current.bytesRead());
    }

    @Override
    public void close() throws IOException {
        closeCurrent();
        fileIndex = files.size();
    }

    private void closeCurrent() throws IOException {
        if (current != null) {
            bytesRead += current.bytesRead();
            ParquetDataReader reader = current;
            current = null;
            reader.close();
        }
    }
}
