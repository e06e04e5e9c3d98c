package dev.tarn.format.lookup;

import dev.tarn.format.lookup.LookupLayout.Mode;
import dev.tarn.format.lsm.RowBytes;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.types.RowKind;

/**
 * The rows a {@link TableLookup} holds of one bucket of one partition, and how a row read from the
 * table changes them ({@link #apply}): by its kind, the filter and the {@link Mode}. Gets hold the
 * read lock of {@link #lock}, whoever applies rows holds its write lock; {@link #apply} itself is
 * not thread-safe. The bucket's stores share that lock, so a get takes one lock, once.
 */
final class HeldBucket implements Closeable {

    final ReadWriteLock lock = new StripedReadWriteLock();

    private final LookupLayout layout;
    private final RowFilter filter;
    private final boolean keepFirst;
    private final BucketStore rows;

    /** {@link Mode#SECONDARY}: each key's key row (key, then join values). */
    @Nullable private final BucketStore keys;

    private final RowBytes storeBytes;
    private final ProjectedRowData storeView;

    /**
     * The row being applied. A stored row is encoded from it directly: the stored fields are its
     * first fields and the encoder reads only those of its own type, so the reader's row (whose
     * strings are copied as bytes) needs no view between.
     */
    private RowData current;

    private final RowData appendView;
    private final GenericRowData rowId = new GenericRowData(1);
    @Nullable private final RowBytes keyBytes;
    @Nullable private final ProjectedRowData keyView;

    /** For each index-key field, its position in a key row. */
    @Nullable private final int[] indexInKeyRow;

    private long nextRowId;

    /** Set under the write lock when a reload replaced this bucket: a get looks again. */
    private boolean closed;

    /**
     * @param keepFirst whether a row never replaces the one held for its key (first-row)
     * @param stores makes a store of a type, ordered by these fields
     */
    HeldBucket(LookupLayout layout, RowFilter filter, boolean keepFirst, StoreFactory stores) {
        this.layout = layout;
        this.filter = filter;
        this.keepFirst = keepFirst;
        this.rows = stores.create(layout.storeType, layout.indexKey, lock);
        this.storeBytes = new RowBytes(layout.storeType);
        int[] prefix = new int[layout.readStoredFields()];
        for (int i = 0; i < prefix.length; i++) {
            prefix[i] = i;
        }
        this.storeView = ProjectedRowData.from(prefix);
        this.appendView = new JoinedRowData(storeView, rowId);
        if (layout.mode.mapsKeys) {
            int[] keyRow = layout.keyRowFields;
            int[] keyOrder = new int[layout.primaryKeyFields];
            for (int i = 0; i < keyOrder.length; i++) {
                keyOrder[i] = i;
            }
            this.keys = stores.create(layout.keyRowType(), keyOrder, lock);
            this.keyBytes = new RowBytes(layout.keyRowType());
            this.keyView = ProjectedRowData.from(keyRow);
            this.indexInKeyRow = new int[layout.indexKey.length];
            for (int i = 0; i < indexInKeyRow.length; i++) {
                indexInKeyRow[i] = indexOf(keyRow, layout.indexKey[i]);
            }
        } else {
            this.keys = null;
            this.keyBytes = null;
            this.keyView = null;
            this.indexInKeyRow = null;
        }
    }

    /**
     * A bucket whose stores keep their rows in {@code budget}'s memory and spill beyond it to files
     * under {@code directory}.
     */
    static HeldBucket spilling(
            LookupLayout layout,
            RowFilter filter,
            boolean keepFirst,
            LookupBudget budget,
            java.nio.file.Path directory) {
        return new HeldBucket(
                layout,
                filter,
                keepFirst,
                (type, indexKey, lock) ->
                        new SpillingBucketStore(
                                new IndexOrder(type, indexKey), budget, directory, lock));
    }

    /** Makes the stores of a bucket, which take {@code lock} as theirs. */
    @FunctionalInterface
    interface StoreFactory {
        BucketStore create(
                org.apache.flink.table.types.logical.RowType type,
                int[] indexKey,
                ReadWriteLock lock);
    }

    private static int indexOf(int[] values, int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** Applies one row read from the table (of the layout's read type), by its row kind. */
    void apply(RowData read) throws IOException {
        RowKind kind = read.getRowKind();
        if (kind == RowKind.UPDATE_BEFORE) {
            return;
        }
        storeView.replaceRow(read);
        current = read;
        if (kind == RowKind.DELETE) {
            remove();
        } else if (filter.test(read)) {
            put();
        } else if (layout.mode != Mode.APPEND) {
            // An update that fails the filter removes the key's row.
            remove();
        }
    }

    /**
     * Calls {@code out} for the rows whose join columns equal {@code probe}'s; false, calling
     * nothing, if the bucket was closed (replaced by a reload).
     */
    boolean scan(RowData probe, Consumer<RowData> out) throws IOException {
        if (closed) {
            return false;
        }
        rows.scan(probe, layout.joinFields, out);
        return true;
    }

    /**
     * {@link Mode#KEY}: the row of the key whose fields {@code key} holds at the index-key
     * positions of a stored row, as {@link BucketStore#getIndexed} answers. REQUIRES: the read lock
     * held, the bucket not {@link #closed()}.
     */
    @Nullable
    BinaryRowData getIndexed(RowData key, BinaryRowData probe, BinaryRowData target) {
        return rows.getIndexed(key, probe, target);
    }

    /** Whether a reload replaced this bucket (read under the lock): a get looks again. */
    boolean closed() {
        return closed;
    }

    private boolean joinHasNull() {
        for (int i = 0; i < layout.joinFields; i++) {
            if (storeView.isNullAt(layout.indexKey[i])) {
                return true;
            }
        }
        return false;
    }

    private void put() throws IOException {
        switch (layout.mode) {
            case APPEND -> {
                if (!joinHasNull()) {
                    rowId.setField(0, nextRowId++);
                    rows.put(storeBytes.encode(appendView));
                }
            }
            case KEY, PREFIX -> {
                if (!keepFirst || !holds()) {
                    rows.put(storeBytes.encode(current));
                }
            }
            case SECONDARY -> {
                BinaryRowData old = keyRowOfView();
                if (old != null) {
                    if (keepFirst) {
                        return;
                    }
                    rows.remove(indexProbe(old));
                }
                if (joinHasNull()) {
                    // Never found by a join: not kept.
                    keys.remove(keyView);
                    return;
                }
                rows.put(storeBytes.encode(current));
                keys.put(keyBytes.encode(keyView));
            }
        }
    }

    private void remove() throws IOException {
        switch (layout.mode) {
            case APPEND -> {
                // Rows of an append table are only removed by overwrites, which reload it.
            }
            case KEY, PREFIX -> rows.remove(storeView);
            case SECONDARY -> {
                BinaryRowData old = keyRowOfView();
                if (old != null) {
                    rows.remove(indexProbe(old));
                    keys.remove(keyView);
                }
            }
        }
    }

    private boolean holds() throws IOException {
        boolean[] found = {false};
        rows.scan(storeView, layout.indexKey.length, r -> found[0] = true);
        return found[0];
    }

    /** The key row held for the key of the row in view, a copy, or null. */
    @Nullable
    private BinaryRowData keyRowOfView() throws IOException {
        keyView.replaceRow(storeView);
        BinaryRowData[] found = {null};
        keys.scan(keyView, layout.primaryKeyFields, r -> found[0] = keyBytes.encode(r).copy());
        return found[0];
    }

    /** A row holding the index key that the key row {@code keyRow} gives. */
    private RowData indexProbe(BinaryRowData keyRow) {
        GenericRowData probe = new GenericRowData(layout.storeType.getFieldCount());
        for (int i = 0; i < indexInKeyRow.length; i++) {
            probe.setField(
                    layout.indexKey[i],
                    RowData.createFieldGetter(
                                    layout.storeType.getTypeAt(layout.indexKey[i]),
                                    indexInKeyRow[i])
                            .getFieldOrNull(keyRow));
        }
        return probe;
    }

    long memoryBytes() {
        return rows.memoryBytes() + (keys == null ? 0 : keys.memoryBytes());
    }

    long diskBytes() {
        return rows.diskBytes() + (keys == null ? 0 : keys.diskBytes());
    }

    @Override
    public void close() throws IOException {
        closed = true;
        rows.close();
        if (keys != null) {
            keys.close();
        }
    }
}
