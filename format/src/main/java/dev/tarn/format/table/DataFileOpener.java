package dev.tarn.format.table;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.predicate.Predicate;
import java.io.FileNotFoundException;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

/**
 * Opens the data files of one bucket for reading, turning a missing file into an error that names
 * the file, the table and what to do about it.
 *
 * @param fileType the row type the files were written with
 * @param filter prunes row groups; null reads them all
 * @param purpose what reads the files, for error messages: {@code snapshot 7}, {@code compaction}
 */
public record DataFileOpener(
        TableContext table,
        Path dir,
        RowType fileType,
        @Nullable Predicate filter,
        String purpose) {

    /** As {@link #open(DataFile, RowType)}, reading every column. */
    public ParquetDataReader open(DataFile file) throws IOException {
        return open(file, fileType);
    }

    public ParquetDataReader open(DataFile file, RowType readType) throws IOException {
        return open(file, readType, 0);
    }

    /**
     * As {@link #open(DataFile, RowType)}, decoding {@code batchRows} rows at a time (0: the
     * default).
     */
    public ParquetDataReader open(DataFile file, RowType readType, int batchRows)
            throws IOException {
        Path path = new Path(dir, file.fileName());
        try {
            return ParquetDataReader.open(
                    table.io(), path, file.fileSize(), fileType, readType, filter, batchRows);
        } catch (IOException e) {
            if (table.io().exists(path)) {
                throw e;
            }
            throw new FileNotFoundException(
                    String.format(
                            "Data file %s of table %s (%s) is missing. Restore the file, or roll"
                                    + " back to a snapshot that does not use it.",
                            path, table.name(), purpose));
        }
    }
}
