package dev.tarn.format.table;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

/**
 * Opens the data files of one bucket for reading, turning a missing file into an error that names
 * the file, the table and what to do about it. A file written under a schema version with other
 * columns is read through the table context's schema by field id ({@link FieldIdMapping}). Given a
 * file's deletion vector, it loads it (on the calling thread) and the reader skips the rows it
 * deletes.
 *
 * @param fileType the row type the files were written with
 * @param filter prunes row groups; null reads them all
 * @param purpose what reads the files, for error messages: {@code snapshot 7}, {@code compaction}
 * @param rewrites whether the rows read are written again (a compaction): then a file of a newer
 *     schema with columns the table context's schema lacks is refused, as rewriting it would drop
 *     their values
 */
public record DataFileOpener(
        TableContext table,
        Path dir,
        RowType fileType,
        @Nullable Predicate filter,
        String purpose,
        boolean rewrites) {

    /** An opener for reads whose rows are not written again. */
    public DataFileOpener(
            TableContext table,
            Path dir,
            RowType fileType,
            @Nullable Predicate filter,
            String purpose) {
        this(table, dir, fileType, filter, purpose, false);
    }

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
        return open(file, readType, batchRows, null);
    }

    /**
     * As {@link #open(DataFile, RowType, int)}, without the rows the deletion vector at {@code
     * vector} deletes (SPEC.md, "Deletion vectors"); null reads every row.
     *
     * @throws FileNotFoundException naming the index file, the data file and the table if the index
     *     file is missing
     * @throws IOException naming the data file and the index file if the vector is corrupt
     */
    public ParquetDataReader open(
            DataFile file, RowType readType, int batchRows, @Nullable DeletionFile vector)
            throws IOException {
        DeletionVector deleted = vector == null ? null : readVector(file, vector);
        return openFile(file, readType, batchRows).withDeletions(deleted);
    }

    private DeletionVector readVector(DataFile file, DeletionFile vector) throws IOException {
        IndexFiles indexes = table.indexFiles();
        Path path = indexes.path(vector.indexFile());
        try {
            return indexes.read(file.fileName(), vector);
        } catch (IOException e) {
            if (table.io().exists(path)) {
                throw e;
            }
            throw new FileNotFoundException(
                    String.format(
                            "Index file %s of table %s (%s), which holds the deletion vector of"
                                    + " data file %s, is missing. Restore the file, or roll back"
                                    + " to a snapshot that does not use it.",
                            path, table.name(), purpose, file.fileName()));
        }
    }

    private ParquetDataReader openFile(DataFile file, RowType readType, int batchRows)
            throws IOException {
        Path path = new Path(dir, file.fileName());
        TableSchema written =
                file.schemaId() == table.schema().id() ? null : table.schema(file.schemaId());
        try {
            if (written != null && !written.sameColumns(table.schema())) {
                checkRewritable(file, written);
                // Written under another schema version: read its columns by field id, without
                // the filter, whose columns are named and indexed by the reading schema.
                FieldIdMapping mapping = new FieldIdMapping(table.schema(), written, readType);
                return ParquetDataReader.open(
                        table.io(), path, file.fileSize(), mapping.columns(), mapping, batchRows);
            }
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

    private void checkRewritable(DataFile file, TableSchema written) {
        TableSchema own = table.schema();
        List<String> newer =
                written.fields().stream()
                        .filter(f -> f.id() > own.highestFieldId())
                        .map(TableSchema.DataField::name)
                        .toList();
        if (rewrites && !newer.isEmpty()) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot rewrite data file %s of table %s (%s) under schema %d: it was"
                                    + " written under the newer schema %d, whose columns %s"
                                    + " schema %d lacks, so their values would be lost. Submit"
                                    + " the job again so it writes under the table's current schema.",
                            file.fileName(),
                            table.name(),
                            purpose,
                            own.id(),
                            written.id(),
                            newer,
                            own.id()));
        }
    }
}
