package dev.tarn.format.parquet;

import org.apache.flink.table.data.RowData;
import org.apache.parquet.column.page.PageReadStore;

import javax.annotation.Nullable;

/** Turns the pages of one row group at a time into rows, in file order. Not thread-safe. */
interface RowGroupReader {

    /** Starts reading {@code pages}, abandoning the rest of the previous row group. */
    void startRowGroup(PageReadStore pages);

    /**
     * The next row of the current row group, or null when it is exhausted. The row, and values
     * read from it, may be overwritten by the next call.
     */
    @Nullable
    RowData next();
}
