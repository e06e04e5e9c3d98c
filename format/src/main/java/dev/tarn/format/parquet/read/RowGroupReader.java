package dev.tarn.format.parquet.read;

import dev.tarn.format.row.BinaryRowBatch;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.column.page.PageReadStore;

/** Turns the pages of one row group at a time into rows, in file order. Not thread-safe. */
public interface RowGroupReader {

    /** Starts reading {@code pages}, abandoning the rest of the previous row group. */
    void startRowGroup(PageReadStore pages) throws IOException;

    /**
     * The next row of the current row group, or null when it is exhausted. The row object may be
     * reused by the next call; values read from it must stay valid.
     */
    @Nullable
    RowData next() throws IOException;

    /** Rows decoded and not returned yet: {@link #next} returns them without decoding. */
    default int buffered() {
        return 0;
    }

    /**
     * Moves up to {@code max} buffered rows into {@code out} as binary rows, as if {@link #next}
     * had returned them; returns how many (0 where rows are not decoded in batches).
     */
    default int transferBuffered(BinaryRowBatch out, int max) {
        return 0;
    }
}
