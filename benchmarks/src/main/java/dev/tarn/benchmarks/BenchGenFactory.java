package dev.tarn.benchmarks;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'bench-datagen'}: the benchmark rows from Flink's FLIP-27 {@link
 * DataGeneratorSource}. Flink's SQL {@code datagen} connector is a legacy source, which Sink V2
 * writers (Tarn's, the blackhole's) cannot chain to, while Paimon's writer can; with a FLIP-27
 * source every sink chains, so the comparison measures the sinks, not the exchange in front of
 * them. Row i is a pure function of i: id = i + 1 (or, with {@code keys}, a key in 1..keys), the
 * other columns pseudo-random from i.
 */
public final class BenchGenFactory implements DynamicTableSourceFactory {

    static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().noDefaultValue();

    /**
     * With it, ids cycle through 1..keys in a scrambled order: every key is written rows/keys
     * times.
     */
    static final ConfigOption<Long> KEYS = ConfigOptions.key("keys").longType().defaultValue(0L);

    @Override
    public String factoryIdentifier() {
        return "bench-datagen";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ROWS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(KEYS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        long rows = helper.getOptions().get(ROWS);
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        return new Source(rows, helper.getOptions().get(KEYS), type);
    }

    private record Source(long rows, long keys, RowType type) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            return SourceProvider.of(
                    new DataGeneratorSource<>(new Rows(keys), rows, InternalTypeInfo.of(type)));
        }

        @Override
        public DynamicTableSource copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return "bench-datagen";
        }
    }

    /**
     * (id BIGINT, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT, ts TIMESTAMP(3), flag
     * BOOLEAN).
     */
    static final class Rows implements GeneratorFunction<Long, RowData> {
        private static final char[] ALPHABET =
                "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();

        private final long keys;

        /**
         * Coprime with keys, so i -> i * stride mod keys permutes 0..keys-1; near keys / phi, so
         * consecutive ids scatter over the whole key range instead of running in order.
         */
        private final long stride;

        /**
         * @param keys 0 for ids 1, 2, 3, ...; otherwise ids cycle through 1..keys
         */
        Rows(long keys) {
            this.keys = keys;
            long candidate = Math.max(1, (long) (keys * 0.6180339887));
            while (keys > 0 && gcd(candidate, keys) != 1) {
                candidate--;
            }
            this.stride = candidate;
        }

        private static long gcd(long a, long b) {
            return b == 0 ? a : gcd(b, a % b);
        }

        @Override
        public RowData map(Long index) {
            long i = index;
            long h = mix(i);
            return GenericRowData.of(
                    keys > 0 ? Math.floorMod(i * stride, keys) + 1 : i + 1,
                    (int) Math.floorMod(h, 1000),
                    StringData.fromString(text(h)),
                    StringData.fromString(text(mix(h))),
                    (h >>> 11) * 0x1.0p-53 * 1000,
                    (int) (h >>> 40) & 0xFFFF,
                    TimestampData.fromEpochMillis(1_764_000_000_000L + i * 10),
                    (h & 1) == 0);
        }

        private static String text(long h) {
            char[] chars = new char[16];
            for (int c = 0; c < chars.length; c++) {
                chars[c] = ALPHABET[(int) Math.floorMod(h, ALPHABET.length)];
                h = h / ALPHABET.length + (h << 7);
            }
            return new String(chars);
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }
    }
}
