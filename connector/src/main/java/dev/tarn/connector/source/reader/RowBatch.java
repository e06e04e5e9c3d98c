package dev.tarn.connector.source.reader;

import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * Rows of one split handed from the fetcher thread to the task thread as one element, which the
 * {@link TarnRecordEmitter} emits whole: one call of the reader per batch rather than per row. A
 * checkpoint falls between batches; each row's position is tracked as it is emitted.
 */
public interface RowBatch {

    /** The next row of the batch, or null after its last; the row may be reused by the next. */
    @Nullable
    RowData next();

    /** The split's file the row last returned came from. */
    int fileIndex();

    /** Rows of that file up to and including the row last returned. */
    long rowsInFile();
}
