package dev.tarn.format.lookup;

import java.io.Closeable;
import java.io.IOException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The rows of one bucket (of one partition) held by a TableLookup, sorted by index key.
 * Package-private.
 */
interface BucketStore extends Closeable {
    void put(
            BinaryRowData
                    row); // row of the store's row type; replaces the row with the same index key

    void remove(RowData indexKeyOf); // removes the row whose index key equals that of the given row

    /**
     * Calls out for every row whose first `fields` index-key fields equal those of `key`, in
     * index-key order.
     */
    void scan(RowData key, int fields, java.util.function.Consumer<RowData> out) throws IOException;

    long memoryBytes();

    long diskBytes();
}
