package dev.tarn.format.lsm;

import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.schema.MergeEngine;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/** A small table (k INT key, a BIGINT, b STRING, c INT) and a way to merge versions of a key. */
public final class MergeTestSupport {

    public static final RowType TABLE =
            RowType.of(
                    new LogicalType[] {
                        new IntType(false), new BigIntType(), new VarCharType(20), new IntType()
                    },
                    new String[] {"k", "a", "b", "c"});

    public static final int[] KEY = {0};

    private MergeTestSupport() {}

    /** The merge function of the engine {@code name} ({@code merge-engine}) with these options. */
    public static MergeFunction engine(String name, Map<String, String> options) {
        return MergeFunctions.create(MergeEngine.fromOption("db.t", name), TABLE, KEY, options);
    }

    /** Feeds the versions in the order given and describes the result, or null. */
    @Nullable
    public static List<Object> merge(MergeFunction function, KeyValue... versions) {
        function.reset();
        for (KeyValue kv : versions) {
            function.add(kv);
        }
        KeyValue result = function.result();
        return result == null ? null : TestRows.describe(result, TABLE);
    }

    public static List<Object> expected(Object... values) {
        return Arrays.asList(values);
    }
}
