package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
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

    private final FileSplitReader files;
    private final int kindIndex;
    private final ProjectedRowData projected;

    ChangelogSplitReader(
            TableContext table, Split split, RowType readType, @Nullable Predicate keyFilter) {
        KeyValueSchema full = KeyValueSchema.of(table.schema());
        List<RowType.RowField> fields = new ArrayList<>(readType.getFields());
        fields.add(full.fileType().getFields().get(full.fileType().getFieldCount() - 1));
        this.files =
                new FileSplitReader(
                        split,
                        new DataFileOpener(
                                table,
                                table.bucketPath(split.partition(), split.bucket()),
                                full.fileType(),
                                keyFilter,
                                "changelog of snapshot " + split.snapshotId()),
                        new RowType(false, fields),
                        false);
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
        RowData row = files.next();
        if (row == null) {
            return null;
        }
        RowData out = projected.replaceRow(row);
        out.setRowKind(RowKind.fromByteValue(row.getByte(kindIndex)));
        return out;
    }

    @Override
    public int buffered() {
        return files.buffered();
    }

    @Override
    public int fileIndex() {
        return files.fileIndex();
    }

    @Override
    public long rowsInFile() {
        return files.rowsInFile();
    }

    @Override
    public void seek(int file, long rows) throws IOException {
        files.seek(file, rows);
    }

    @Override
    public long bytesRead() {
        return files.bytesRead();
    }

    @Override
    public void close() throws IOException {
        files.close();
    }
}
