package dev.tarn.format.lookup;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The rows of one bucket (of one partition) held by a TableLookup, sorted by index key.
 * Package-private.
 */
interface BucketStore extends Closeable {

    /** Adds a row of the store's row type; replaces the row with the same index key. */
    void put(BinaryRowData row);

    /** Removes the row whose index key equals that of the given row. */
    void remove(RowData indexKeyOf);

    /**
     * Calls out for every row whose first {@code fields} index-key fields equal those of {@code
     * key}, in index-key order.
     */
    void scan(RowData key, int fields, Consumer<RowData> out) throws IOException;

    /** Bytes of memory the store holds now. */
    long memoryBytes();

    /** Bytes of local disk the store holds now. */
    long diskBytes();
}
