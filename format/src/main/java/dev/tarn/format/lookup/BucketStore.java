package dev.tarn.format.lookup;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;
import javax.annotation.Nullable;
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

    /** What {@link #getIndexed} returns where it cannot decide: {@link #scan} must. */
    BinaryRowData UNDECIDED = new BinaryRowData(0);

    /**
     * The row whose whole index key equals the index-key fields of {@code key} (a row of the
     * store's arity of which only those fields are read, of any {@code RowData} class), pointed
     * into {@code target}; null if there is none; {@link #UNDECIDED} if this quick path cannot
     * tell. {@code probe} is the caller's scratch row (it may be {@code target}). The row is valid
     * while the caller holds the store's read lock.
     */
    @Nullable
    BinaryRowData getIndexed(RowData key, BinaryRowData probe, BinaryRowData target);

    /** Bytes of memory the store holds now. */
    long memoryBytes();

    /** Bytes of local disk the store holds now. */
    long diskBytes();
}
