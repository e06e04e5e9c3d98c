package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Reads the changelog files of a split as they were written: every stored change, file after file
 * and in file order, with the row kind stored beside it (SPEC.md, "Changelog files"). Nothing is
 * merged, so a complete input changelog passes through whole.
 */
final class ChangelogSplitReader implements TableRead.SplitReader {

    private final Split split;
    private final DataFileOpener opener;
    private final RowType fileReadType;
    private final int kindIndex;
    private final ProjectedRowData projected;
    private int fileIndex;
    @Nullable private ParquetDataReader current;
    private long bytesRead;
    private long rowsInFile;

    ChangelogSplitReader(
            TableContext table, Split split, RowType readType, @Nullable Predicate keyFilter) {
        this.split = split;
        KeyValueSchema full = KeyValueSchema.of(table.schema());
        this.opener =
                new DataFileOpener(
                        table,
                        table.bucketPath(split.partition(), split.bucket()),
                        full.fileType(),
                        keyFilter,
                        "changelog of snapshot " + split.snapshotId());
        List<RowType.RowField> fields = new ArrayList<>(readType.getFields());
        fields.add(full.fileType().getFields().get(full.fileType().getFieldCount() - 1));
        this.fileReadType = new RowType(false, fields);
        this.kindIndex = readType.getFieldCount();
        int[] projection = new int[readType.getFieldCount()];
        for (int i = 0; i < projection.length; i++) {
            projection[i] = i;
        }
        this.projected = ProjectedRowData.from(projection);
    }

    @Override
    @Nullable
    public RowData next() throws IOException {
        while (true) {
            if (current == null) {
                if (fileIndex >= split.files().size()) {
                    return null;
                }
                current =
                        opener.open(
                                split.files().get(fileIndex++),
                                fileReadType,
                                TableRead.SCAN_BATCH_ROWS);
                rowsInFile = 0;
            }
            RowData row = current.next();
            if (row != null) {
                rowsInFile++;
                RowData out = projected.replaceRow(row);
                out.setRowKind(RowKind.fromByteValue(row.getByte(kindIndex)));
                return out;
            }
            bytesRead += current.bytesRead();
            current.close();
            current = null;
        }
    }

    @Override
    public int buffered() {
        return current == null ? 0 : current.buffered();
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
        current =
                opener.open(
                        split.files().get(fileIndex++), fileReadType, TableRead.SCAN_BATCH_ROWS);
        rowsInFile = current.skip(rows);
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
