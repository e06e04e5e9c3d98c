package dev.tarn.format.parquet.write;

import java.io.IOException;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Turns rows into an open Parquet file for the data writer ({@code ParquetDataWriter}): through
 * Parquet's record API ({@link RecordRowWriter}, any row type) or straight into the column writers
 * ({@link FlatRowWriter}, rows of atomic columns). Both write the same schema, encodings, pages,
 * row groups, statistics and page indexes for the same rows.
 *
 * <p>Not thread-safe. After {@code write} or {@code finish} throws, the file is unusable and the
 * caller deletes it.
 */
public interface ParquetRowWriter {

    /** Appends {@code row}; the caller may reuse it afterwards. */
    void write(RowData row) throws IOException;

    /** Bytes written plus bytes buffered for the open row group. */
    long dataSize();

    /**
     * Flushes the open row group, writes the footer, closes the file and returns the footer. Frees
     * the writer's native memory whether or not it succeeds.
     */
    ParquetMetadata finish() throws IOException;

    /** Frees the writer's native memory without finishing the file; never throws. */
    void abort();
}
