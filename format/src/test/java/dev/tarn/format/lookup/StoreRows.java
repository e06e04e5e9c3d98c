package dev.tarn.format.lookup;

import dev.tarn.format.lsm.RowCopier;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Rows of a store for tests: {@code (a INT, b STRING, c BIGINT, payload STRING)} indexed by (a, b,
 * c). The values of b share their first 8 bytes, so comparisons on b read the rows.
 */
final class StoreRows {

    static final RowType TYPE =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new IntType(false),
                        new VarCharType(false, 100),
                        new BigIntType(false),
                        new VarCharType(true, 1000)
                    },
                    new String[] {"a", "b", "c", "payload"});

    static final IndexOrder ORDER = new IndexOrder(TYPE, new int[] {0, 1, 2});

    private static final RowCopier COPIER = new RowCopier(TYPE);

    private StoreRows() {}

    static String b(int i) {
        return "customer-" + i;
    }

    static GenericRowData key(int a, int b, long c) {
        return GenericRowData.of(a, StringData.fromString(b(b)), c, null);
    }

    static BinaryRowData row(int a, int b, long c, String payload) {
        return COPIER.copy(
                GenericRowData.of(
                        a, StringData.fromString(b(b)), c, StringData.fromString(payload)));
    }

    static String describe(RowData row) {
        return row.getInt(0)
                + "/"
                + row.getString(1)
                + "/"
                + row.getLong(2)
                + "="
                + row.getString(3);
    }
}
