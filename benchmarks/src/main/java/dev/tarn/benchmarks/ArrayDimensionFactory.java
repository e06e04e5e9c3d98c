package dev.tarn.benchmarks;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.DataType;

/**
 * {@code 'connector' = 'bench-array-dim'}: the lookup-join benchmark's dimension {@code (id BIGINT,
 * name STRING, tier INT, score DOUBLE)} with ids 1..{@code keys}, held as binary rows in an array
 * indexed by id, built once per JVM outside any measured job. A lookup is one array read, with no
 * lock, hash or copy: what Flink's lookup join costs with a free lookup, so the most facts per
 * second any lookup source can reach in the same job. The dimension row of id x is the generator's
 * row x - 1, as in the Tarn and Paimon tables the benchmark writes.
 */
public final class ArrayDimensionFactory implements DynamicTableSourceFactory {

    static final ConfigOption<Long> KEYS = ConfigOptions.key("keys").longType().noDefaultValue();

    /** The columns a table of this connector must declare, in order. */
    static final String COLUMNS = "id BIGINT NOT NULL, name STRING, tier INT, score DOUBLE";

    /** Each key count and projection's rows, built on first use. */
    private static final Map<String, List<RowData>[]> ROWS = new ConcurrentHashMap<>();

    @Override
    public String factoryIdentifier() {
        return "bench-array-dim";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(KEYS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        List<String> names =
                DataType.getFieldNames(context.getPhysicalRowDataType()).stream().toList();
        if (!names.equals(List.of("id", "name", "tier", "score"))) {
            throw new IllegalArgumentException(
                    "bench-array-dim table "
                            + context.getObjectIdentifier()
                            + " must have the columns ("
                            + COLUMNS
                            + "), has "
                            + names);
        }
        return new Source(helper.getOptions().get(KEYS), new int[] {0, 1, 2, 3});
    }

    /**
     * The rows of ids 1..keys with the columns {@code fields} (indices into id, name, tier, score),
     * at index id; made once per JVM and kept.
     */
    static List<RowData>[] rows(long keys, int[] fields) {
        return ROWS.computeIfAbsent(keys + Arrays.toString(fields), k -> build(keys, fields));
    }

    @SuppressWarnings("unchecked")
    private static List<RowData>[] build(long keys, int[] fields) {
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(keys, 0);
        List<RowData>[] rows = new List[Math.toIntExact(keys + 1)];
        for (long id = 1; id <= keys; id++) {
            RowData source = generator.row(id - 1);
            BinaryRowData row = new BinaryRowData(fields.length);
            BinaryRowWriter writer = new BinaryRowWriter(row, 16);
            for (int i = 0; i < fields.length; i++) {
                switch (fields[i]) {
                    case 0 -> writer.writeLong(i, id);
                    case 1 -> writer.writeString(i, source.getString(2));
                    case 2 -> writer.writeInt(i, source.getInt(1) % 10);
                    default -> writer.writeDouble(i, source.getDouble(4));
                }
            }
            writer.complete();
            rows[(int) id] = Collections.singletonList(row);
        }
        return rows;
    }

    private static final class Source implements LookupTableSource, SupportsProjectionPushDown {
        private final long keys;
        private int[] fields;

        Source(long keys, int[] fields) {
            this.keys = keys;
            this.fields = fields;
        }

        @Override
        public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
            int[][] keyIndices = context.getKeys();
            if (keyIndices.length != 1
                    || keyIndices[0].length != 1
                    || fields[keyIndices[0][0]] != 0) {
                throw new IllegalArgumentException(
                        "bench-array-dim joins on its column id only, not on columns "
                                + Arrays.deepToString(keyIndices));
            }
            return LookupFunctionProvider.of(new ArrayLookup(keys, fields));
        }

        @Override
        public boolean supportsNestedProjection() {
            return false;
        }

        @Override
        public void applyProjection(int[][] projectedFields, DataType producedDataType) {
            fields = Arrays.stream(projectedFields).mapToInt(path -> fields[path[0]]).toArray();
        }

        @Override
        public DynamicTableSource copy() {
            return new Source(keys, fields.clone());
        }

        @Override
        public String asSummaryString() {
            return "bench-array-dim";
        }
    }

    /** Public because Flink runs only public function classes. */
    public static final class ArrayLookup extends LookupFunction {
        private static final long serialVersionUID = 1L;

        private final long keys;
        private final int[] fields;
        private transient List<RowData>[] rows;

        ArrayLookup(long keys, int[] fields) {
            this.keys = keys;
            this.fields = fields;
        }

        @Override
        public void open(org.apache.flink.table.functions.FunctionContext context) {
            rows = rows(keys, fields);
        }

        @Override
        public Collection<RowData> lookup(RowData keyRow) {
            long id = keyRow.getLong(0);
            if (id < 1 || id >= rows.length) {
                return Collections.emptyList();
            }
            return rows[(int) id];
        }
    }
}
