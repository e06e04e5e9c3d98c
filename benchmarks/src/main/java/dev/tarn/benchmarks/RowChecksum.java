package dev.tarn.benchmarks;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import javax.annotation.Nullable;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * {@code row_checksum(id, k, s1, s2, price, qty, ts, flag)}: a 32-bit hash of every column of a
 * benchmark row, whose SUM over a table (exact, whatever the order) checks its contents against the
 * rows the generator implies. The same function hashes a generator's row ({@link #of}).
 */
public final class RowChecksum extends ScalarFunction {

    static final String NAME = "row_checksum";

    /** The SQL call over a benchmark table's columns. */
    static final String CALL = NAME + "(id, k, s1, s2, price, qty, ts, flag)";

    /** What a NULL column hashes as: no generated value is NULL. */
    private static final long NULL = 0x9e3779b97f4a7c15L;

    static void register(TableEnvironment env) {
        env.createTemporarySystemFunction(NAME, RowChecksum.class);
    }

    public long eval(
            @Nullable Long id,
            @Nullable Integer k,
            @Nullable String s1,
            @Nullable String s2,
            @Nullable Double price,
            @Nullable Integer qty,
            @Nullable @DataTypeHint("TIMESTAMP(3)") LocalDateTime ts,
            @Nullable Boolean flag) {
        return hash(id, k, s1, s2, price, qty, ts, flag);
    }

    /** The checksum of a generator's row. */
    static long of(RowData row) {
        return hash(
                row.getLong(0),
                row.getInt(1),
                row.getString(2).toString(),
                row.getString(3).toString(),
                row.getDouble(4),
                row.getInt(5),
                row.getTimestamp(6, 3).toLocalDateTime(),
                row.getBoolean(7));
    }

    /** The checksum of a row read back with {@code collect()}, in its external types. */
    static long of(org.apache.flink.types.Row row) {
        return hash(
                (Long) row.getField(0),
                (Integer) row.getField(1),
                (String) row.getField(2),
                (String) row.getField(3),
                (Double) row.getField(4),
                (Integer) row.getField(5),
                (LocalDateTime) row.getField(6),
                (Boolean) row.getField(7));
    }

    private static long hash(
            @Nullable Long id,
            @Nullable Integer k,
            @Nullable String s1,
            @Nullable String s2,
            @Nullable Double price,
            @Nullable Integer qty,
            @Nullable LocalDateTime ts,
            @Nullable Boolean flag) {
        long h = mix(id == null ? NULL : id);
        h = mix(h ^ (k == null ? NULL : k));
        h = mix(h ^ (s1 == null ? NULL : s1.hashCode()));
        h = mix(h ^ (s2 == null ? NULL : s2.hashCode()));
        h = mix(h ^ (price == null ? NULL : Double.doubleToLongBits(price)));
        h = mix(h ^ (qty == null ? NULL : qty));
        h =
                mix(
                        h
                                ^ (ts == null
                                        ? NULL
                                        : ts.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L
                                                + ts.getNano()));
        h = mix(h ^ (flag == null ? NULL : flag ? 1 : 2));
        // 32 bits: a SUM over 2^31 rows cannot overflow.
        return h >>> 32;
    }

    private static long mix(long z) {
        return BenchGenFactory.Rows.mix(z);
    }
}
