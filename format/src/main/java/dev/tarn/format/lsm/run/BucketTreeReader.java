package dev.tarn.format.lsm.run;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Reads one bucket of a primary-key table as of a set of its files: the current row of every key,
 * merged on read. Section by section ({@link Sections}), a single sorted run is streamed as it is
 * (without reading its sequence numbers, which only order runs) and several runs go through a
 * {@link FileRunMerge} with the table's merge function; tombstones and other retractions are
 * dropped. Rows come in key order, as INSERTs, each reused by the next {@link #next()}. Read as
 * changes ({@link #asChanges}), a key whose result is a retraction comes out as a DELETE and the
 * others keep the kind stored with them, for a streaming read of a snapshot's new files. Not
 * thread-safe.
 */
public final class BucketTreeReader implements Closeable {

    /** Opens a data file of the bucket for reading some of its file type's columns. */
    @FunctionalInterface
    public interface ColumnOpener {
        ParquetDataReader open(DataFile file, RowType readType) throws IOException;

        /**
         * Whether {@code file} has rows that a deletion vector deletes, which {@link #open} skips:
         * a full compaction rewrites such a file even in a bucket that is one run at the last level
         * already. None by default.
         */
        default boolean hasDeletions(DataFile file) {
            return false;
        }
    }

    private final KeyValueSchema schema;
    private final SortedRunReader.FileOpener opener;

    /** Opens a file of a lone run: the merged columns and the row kind, no sequence number. */
    private final SortedRunReader.FileOpener singleRunOpener;

    /** Position of the row kind in rows read by {@link #singleRunOpener}. */
    private final int singleRunKind;

    private final MergeFunction merge;
    private boolean changes;
    private final Iterator<List<SortedRun>> sections;
    private final List<SortedRunReader> openReaders = new ArrayList<>();
    @Nullable private Iterator<KeyValue> current;
    @Nullable private SortedRunReader single;
    private long bytesRead;

    /**
     * @param schema the columns to merge and return (the key among them), as changes of the files
     * @param files the bucket's live files
     * @param merge the table's merge function over {@code schema}'s columns
     */
    public BucketTreeReader(
            KeyValueSchema schema, List<DataFile> files, ColumnOpener opener, MergeFunction merge) {
        this.schema = schema;
        RowType fileReadType = schema.fileType();
        this.opener = file -> opener.open(file, fileReadType);
        List<RowType.RowField> kindOnly = new ArrayList<>(schema.tableType().getFields());
        kindOnly.add(fileReadType.getFields().get(fileReadType.getFieldCount() - 1));
        RowType singleRunType = new RowType(false, kindOnly);
        this.singleRunOpener = file -> opener.open(file, singleRunType);
        this.singleRunKind = schema.tableType().getFieldCount();
        this.merge = merge;
        this.sections = Sections.of(schema, files).iterator();
    }

    /**
     * Returns this reader reading changes: each key's merged result with its kind, retractions as
     * DELETEs, instead of the current rows alone. Call before the first {@link #next()}.
     */
    public BucketTreeReader asChanges() {
        this.changes = true;
        return this;
    }

    /** The next current row (or change, see {@link #asChanges}), or null once every key is read. */
    @Nullable
    public RowData next() throws IOException {
        try {
            while (true) {
                if (single != null) {
                    RowData row = nextOfSingleRun();
                    if (row != null) {
                        return row;
                    }
                    closeReaders();
                    single = null;
                    continue;
                }
                if (current == null) {
                    if (!sections.hasNext()) {
                        return null;
                    }
                    List<SortedRun> section = sections.next();
                    if (section.size() == 1) {
                        single =
                                new SortedRunReader(
                                        section.get(0).files(), singleRunOpener, schema);
                        openReaders.add(single);
                        continue;
                    }
                    current = open(section);
                }
                while (current.hasNext()) {
                    KeyValue kv = current.next();
                    RowKind kind = kindOf(kv.kind());
                    if (kind != null) {
                        RowData row = kv.row();
                        row.setRowKind(kind);
                        return row;
                    }
                }
                closeReaders();
                current = null;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The next row of the lone run that is not a retraction, or null at its end. */
    @Nullable
    private RowData nextOfSingleRun() {
        RowData row;
        while ((row = single.nextRow()) != null) {
            RowKind kind = kindOf(RowKind.fromByteValue(row.getByte(singleRunKind)));
            if (kind != null) {
                row.setRowKind(kind);
                return row;
            }
        }
        return null;
    }

    /** The kind a merged result of {@code stored} kind comes out as, or null if it is dropped. */
    @Nullable
    private RowKind kindOf(RowKind stored) {
        if (KeyValue.isRetraction(stored)) {
            return changes ? RowKind.DELETE : null;
        }
        return changes ? stored : RowKind.INSERT;
    }

    private Iterator<KeyValue> open(List<SortedRun> runs) {
        for (SortedRun run : runs) {
            openReaders.add(new SortedRunReader(run.files(), opener, schema));
        }
        if (openReaders.size() == 1) {
            return openReaders.get(0);
        }
        return new FileRunMerge(openReaders, schema.keys(), merge, !changes);
    }

    /**
     * Rows decoded and not returned yet while a lone sorted run streams: the next calls return up
     * to that many rows without reading a file (fewer if some are retractions). Zero while runs
     * merge, where each row is computed as it is asked for.
     */
    public int buffered() {
        return single == null ? 0 : single.buffered();
    }

    /** Bytes read from data files so far. */
    public long bytesRead() {
        return bytesRead + openReaders.stream().mapToLong(SortedRunReader::bytesRead).sum();
    }

    @Override
    public void close() throws IOException {
        closeReaders();
    }

    private void closeReaders() throws IOException {
        for (SortedRunReader reader : openReaders) {
            reader.close();
            bytesRead += reader.bytesRead();
        }
        openReaders.clear();
    }
}
