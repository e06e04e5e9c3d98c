package dev.tarn.format.manifest;

import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * A data file of a table, as a manifest records it. The file lives in its partition's bucket
 * directory; its name is unique within the table.
 *
 * @param level 0 for files written by a writer; higher levels hold compacted, sorted runs
 * @param schemaId the schema the file was written with
 * @param valueStats statistics of every column of that schema, in column order
 * @param keyRange the file's smallest and largest primary key; null in append tables
 */
public record DataFile(
        String fileName,
        long fileSize,
        long rowCount,
        int level,
        long schemaId,
        SequenceRange sequence,
        ColumnStats valueStats,
        @Nullable KeyRange keyRange)
        implements Serializable {

    public DataFile {
        if (fileName == null || fileName.isEmpty() || fileName.contains("/")) {
            throw new IllegalArgumentException("Invalid data file name: " + fileName);
        }
        if (fileSize < 0 || rowCount < 0 || level < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid data file %s: size %d, rows %d, level %d",
                            fileName, fileSize, rowCount, level));
        }
    }
}
