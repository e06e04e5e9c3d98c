package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.Test;

/**
 * The memory rows of a lookup store: keys put in key order (a bucket's load) go straight to the
 * base run, and the hash index of the base tells keys apart by their rows where hashes collide.
 */
class MemoryRowsTest {

    /** Entries of the tests: past {@link MemoryRows#INDEX_MIN_ENTRIES}, so gets use the index. */
    private static final int KEYS = 3_000;

    private static MemoryRows rows(IndexOrder order) {
        return new MemoryRows(order, bytes -> true, bytes -> {});
    }

    private static BinaryRowData put(MemoryRows rows, IndexOrder order, int i) {
        BinaryRowData row = StoreRows.row(i, i % 7, i, "p" + i);
        assertThat(rows.put(row, order.prefix(row))).isTrue();
        return row;
    }

    /** The address of a key: by the hash index alone, or by the general find (both runs). */
    private static int find(MemoryRows rows, IndexOrder order, int a, int b, long c) {
        BinaryRowData probe = new BinaryRowData(StoreRows.TYPE.getFieldCount());
        if (order == StoreRows.ORDER) {
            return rows.findIndexed(StoreRows.key(a, b, c), probe);
        }
        BinaryRowData key = StoreRows.row(a, b, c, "");
        return rows.find(key, order.prefix(key), probe);
    }

    private static void checkFound(MemoryRows rows, IndexOrder order) {
        BinaryRowData target = new BinaryRowData(StoreRows.TYPE.getFieldCount());
        for (int i = 0; i < KEYS; i++) {
            int address = find(rows, order, i, i % 7, i);
            assertThat(address).as("address of key %d", i).isPositive();
            assertThat(StoreRows.describe(rows.rowAt(address, target)))
                    .isEqualTo(i + "/customer-" + (i % 7) + "/" + i + "=p" + i);
        }
        // Keys absent: another c, another b.
        assertThat(find(rows, order, 5, 5, 6)).isZero();
        assertThat(find(rows, order, 5, 6, 5)).isZero();
        assertThat(find(rows, order, KEYS, KEYS % 7, KEYS)).isZero();
    }

    @Test
    void keysPutInKeyOrderGoStraightToTheBaseRun() {
        MemoryRows rows = rows(StoreRows.ORDER);
        for (int i = 0; i < KEYS; i++) {
            put(rows, StoreRows.ORDER, i);
        }
        assertThat(rows.hasAside()).as("entries waiting aside after an ordered load").isFalse();
        assertThat(rows.entries()).isEqualTo(KEYS);
        checkFound(rows, StoreRows.ORDER);
        // A key before the last goes aside, and is found there by the general search.
        BinaryRowData early = StoreRows.row(-1, 0, 0, "early");
        assertThat(rows.put(early, StoreRows.ORDER.prefix(early))).isTrue();
        assertThat(rows.hasAside()).isTrue();
        assertThat(rows.find(early, StoreRows.ORDER.prefix(early), new BinaryRowData(4)))
                .isPositive();
    }

    @Test
    void collidingHashesAreToldApartByTheirRows() {
        // Three hashes for all keys: every probe walks past other keys of its hash.
        IndexOrder colliding =
                new IndexOrder(StoreRows.TYPE, new int[] {0, 1, 2}, row -> row.getInt(0) % 3);
        MemoryRows rows = rows(colliding);
        // Out of order, so that the entries are merged from aside into the base.
        for (int i = KEYS - 1; i >= 0; i--) {
            put(rows, colliding, i);
        }
        assertThat(rows.entries()).isEqualTo(KEYS);
        checkFound(rows, colliding);
    }

    /**
     * The hash index holds row addresses: rows replaced in place and elsewhere in the pages, the
     * pages' compactions that move every row, removals and revivals keep it right, each get by the
     * index alone seeing the last change at once.
     */
    @Test
    void theIndexFollowsRowsThatMove() {
        MemoryRows rows = rows(StoreRows.ORDER);
        for (int i = 0; i < KEYS; i++) {
            put(rows, StoreRows.ORDER, i);
        }
        checkFound(rows, StoreRows.ORDER);
        java.util.Random random = new java.util.Random(11);
        String[] model = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            model[i] = "p" + i;
        }
        BinaryRowData probe = new BinaryRowData(StoreRows.TYPE.getFieldCount());
        BinaryRowData target = new BinaryRowData(StoreRows.TYPE.getFieldCount());
        // Enough rewrites of rows of random length for garbage to fill half the pages many times.
        for (int op = 0; op < 20 * KEYS; op++) {
            int i = random.nextInt(KEYS);
            BinaryRowData row;
            if (random.nextInt(6) == 0) {
                row = StoreRows.row(i, i % 7, i, "");
                assertThat(rows.remove(row, StoreRows.ORDER.prefix(row))).isTrue();
                model[i] = null;
            } else {
                model[i] = "v" + op + "x".repeat(random.nextInt(64));
                row = StoreRows.row(i, i % 7, i, model[i]);
                assertThat(rows.put(row, StoreRows.ORDER.prefix(row))).isTrue();
            }
            assertThat(rows.hasAside()).as("a key held goes nowhere else").isFalse();
            int address = rows.findIndexed(StoreRows.key(i, i % 7, i), probe);
            if (model[i] == null) {
                assertThat(address).as("address of removed key %d, op %d", i, op).isNegative();
            } else {
                assertThat(address).as("address of key %d, op %d", i, op).isPositive();
                assertThat(StoreRows.describe(rows.rowAt(address, target)))
                        .as("row of key %d, op %d", i, op)
                        .isEqualTo(i + "/customer-" + (i % 7) + "/" + i + "=" + model[i]);
            }
        }
    }
}
