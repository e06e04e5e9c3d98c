package dev.tarn.format.read;

import dev.tarn.format.lsm.lookup.CurrentRows;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * The current rows of keys asked for in ascending order, from a bucket's files: a merge join of the
 * keys against the bucket's merged rows, for a {@link ChangelogCompletion} whose bucket does not
 * fit in memory. Each lookup reads on from where the last one stopped, so a snapshot's changes cost
 * one pass over the bucket. Not thread-safe.
 */
final class SortedLookup {

    private final CurrentRows order;
    @Nullable private final TableRead.SplitReader rows;
    @Nullable private RowData head;
    private boolean started;

    /**
     * @param raw reads {@code before}, the bucket's files, as current rows in key order
     * @param order compares the keys of the rows
     */
    SortedLookup(TableRead raw, CurrentRows order, Split before) {
        this.order = order;
        this.rows = before.files().isEmpty() ? null : raw.open(before);
    }

    /**
     * The current row of the key of {@code key}, or null; valid until the next call. REQUIRES: each
     * call's key is greater than the last call's.
     */
    @Nullable
    RowData find(RowData key) throws IOException {
        if (rows == null) {
            return null;
        }
        if (!started) {
            started = true;
            head = rows.next();
        }
        while (head != null && order.compareKeys(head, key) < 0) {
            head = rows.next();
        }
        return head != null && order.compareKeys(head, key) == 0 ? head : null;
    }

    long bytesRead() {
        return rows == null ? 0 : rows.bytesRead();
    }

    void close() throws IOException {
        if (rows != null) {
            rows.close();
        }
    }
}
