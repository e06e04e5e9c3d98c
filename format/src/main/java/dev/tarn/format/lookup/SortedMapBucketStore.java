package dev.tarn.format.lookup;

import dev.tarn.format.lsm.KeyComparator;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A {@link BucketStore} wholly in memory: a tree map of owned binary rows ordered by their index
 * key through the LSM's {@link KeyComparator}. A scan of an index-key prefix is one seek, then a
 * walk while the prefix holds. The simple, correct model of a store; not thread-safe (its owner
 * locks).
 */
final class SortedMapBucketStore implements BucketStore {

    /** Bytes a tree-map entry and its row object take beside the row's bytes, as an estimate. */
    private static final long ENTRY_OVERHEAD = 96;

    /** A seek target: orders before every row whose first {@code fields} key fields equal its. */
    private record Probe(RowData key, int fields) {}

    private final KeyComparator[] prefixes;
    private final TreeMap<Object, BinaryRowData> rows;
    private long bytes;

    /**
     * @param rowType the rows' type
     * @param indexKey the fields of the index key, in order
     */
    SortedMapBucketStore(RowType rowType, int[] indexKey) {
        this.prefixes = new KeyComparator[indexKey.length + 1];
        for (int n = 1; n <= indexKey.length; n++) {
            prefixes[n] = new KeyComparator(rowType, Arrays.copyOf(indexKey, n));
        }
        KeyComparator full = prefixes[indexKey.length];
        Comparator<Object> order =
                (a, b) -> {
                    if (a == b) {
                        // The map checks a bound against itself.
                        return 0;
                    }
                    if (a instanceof Probe p) {
                        int c = prefixes[p.fields].compare(p.key, (RowData) b);
                        return c != 0 ? c : -1;
                    }
                    if (b instanceof Probe p) {
                        int c = prefixes[p.fields].compare((RowData) a, p.key);
                        return c != 0 ? c : 1;
                    }
                    return full.compare((RowData) a, (RowData) b);
                };
        this.rows = new TreeMap<>(order);
    }

    @Override
    public void put(BinaryRowData row) {
        BinaryRowData owned = row.copy();
        // Removed first: on a replacing put the map would keep the old row as the entry's key.
        BinaryRowData old = rows.remove(owned);
        if (old != null) {
            bytes -= size(old);
        }
        rows.put(owned, owned);
        bytes += size(owned);
    }

    @Override
    public void remove(RowData indexKeyOf) {
        BinaryRowData old = rows.remove(indexKeyOf);
        if (old != null) {
            bytes -= size(old);
        }
    }

    @Override
    public void scan(RowData key, int fields, Consumer<RowData> out) {
        if (fields < 1 || fields >= prefixes.length) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot scan %d index-key fields of a store whose index key has %d",
                            fields, prefixes.length - 1));
        }
        KeyComparator prefix = prefixes[fields];
        for (Map.Entry<Object, BinaryRowData> e :
                rows.tailMap(new Probe(key, fields), true).entrySet()) {
            if (prefix.compare(key, e.getValue()) != 0) {
                return;
            }
            out.accept(e.getValue());
        }
    }

    @Override
    public long memoryBytes() {
        return bytes;
    }

    @Override
    public long diskBytes() {
        return 0;
    }

    @Override
    public void close() {
        rows.clear();
        bytes = 0;
    }

    private static long size(BinaryRowData row) {
        return row.getSizeInBytes() + ENTRY_OVERHEAD;
    }
}
