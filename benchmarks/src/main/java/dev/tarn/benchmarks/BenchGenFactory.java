package dev.tarn.benchmarks;

import java.util.Arrays;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
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
import org.apache.flink.util.NumberSequenceIterator;

/**
 * {@code 'connector' = 'bench-datagen'}: the benchmark rows from Flink's FLIP-27 {@link
 * DataGeneratorSource}. Flink's SQL {@code datagen} connector is a legacy source, which Sink V2
 * writers (Tarn's, the blackhole's) cannot chain to, while Paimon's writer can; with a FLIP-27
 * source every sink chains, so the comparison measures the sinks, not the exchange in front of
 * them. Row i is a pure function of i: id = i + 1 (or, with {@code keys}, a key in 1..keys), the
 * other columns pseudo-random from i. With keys and a parallelism p, subtask k of p generates rows
 * k, k + p, k + 2p, ...: the writes of a key all come from one subtask, in order, so the last write
 * of every key, and with it the table the upserts leave, is the same at every parallelism.
 */
public final class BenchGenFactory implements DynamicTableSourceFactory {

    static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().noDefaultValue();

    /**
     * With it, ids cycle through 1..keys in a scrambled order: every key is written rows/keys
     * times.
     */
    static final ConfigOption<Long> KEYS = ConfigOptions.key("keys").longType().defaultValue(0L);

    /**
     * Rows per second of the whole source (its subtasks share it), 0 for as fast as it can: a
     * freshness benchmark's facts keep arriving at a steady pace instead of taking every core.
     */
    static final ConfigOption<Long> ROWS_PER_SECOND =
            ConfigOptions.key("rows-per-second").longType().defaultValue(0L);

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
        return Set.of(KEYS, ROWS_PER_SECOND);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        long rows = helper.getOptions().get(ROWS);
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        long rate = helper.getOptions().get(ROWS_PER_SECOND);
        if (rate < 0) {
            throw new IllegalArgumentException(
                    "Invalid bench-datagen option 'rows-per-second' = "
                            + rate
                            + ": expected 0 (unlimited) or a positive rate");
        }
        return new Source(rows, helper.getOptions().get(KEYS), rate, type);
    }

    private record Source(long rows, long keys, long rowsPerSecond, RowType type)
            implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            return SourceProvider.of(
                    new DataGeneratorSource<>(
                            new Rows(rows, keys),
                            rows,
                            rowsPerSecond > 0
                                    ? RateLimiterStrategy.perSecond(rowsPerSecond)
                                    : RateLimiterStrategy.noOp(),
                            InternalTypeInfo.of(type)));
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
     * BOOLEAN): {@link #row} is row i; {@link #map} is what a subtask generates for an index of its
     * split.
     */
    static final class Rows implements GeneratorFunction<Long, RowData> {
        private static final char[] ALPHABET =
                "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();

        private final long rows;
        private final long keys;

        /**
         * Coprime with keys, so i -> i * stride mod keys permutes 0..keys-1; near keys / phi, so
         * consecutive ids scatter over the whole key range instead of running in order.
         */
        private final long stride;

        /**
         * First index of each split of the source (its splits are contiguous ranges of 0..rows-1).
         */
        private long[] splitStarts = {0};

        /**
         * @param rows how many rows the source generates
         * @param keys 0 for ids 1, 2, 3, ...; otherwise ids cycle through 1..keys
         */
        Rows(long rows, long keys) {
            this.rows = rows;
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

        /**
         * With keys and a parallelism p over 1, index j of split k becomes row {@code k + j * p}.
         * The layout of the splits is the enumerator's: it splits 0..rows-1 into p contiguous
         * ranges with {@link NumberSequenceIterator#split}, as {@link #interleave} does.
         */
        @Override
        public void open(SourceReaderContext context) {
            interleave(context.currentParallelism());
        }

        /** Spreads the rows over p subtasks as {@link #open} does; returns this. */
        Rows interleave(int parallelism) {
            if (keys == 0 || parallelism == 1 || rows == 0) {
                splitStarts = new long[] {0};
                return this;
            }
            if (keys % parallelism != 0) {
                throw new IllegalStateException(
                        String.format(
                                "bench-datagen cannot spread %d keys over %d subtasks: the writes"
                                        + " of a key must all come from one subtask, so the keys"
                                        + " must be a multiple of the parallelism",
                                keys, parallelism));
            }
            NumberSequenceIterator[] splits =
                    new NumberSequenceIterator(0, rows - 1).split(parallelism);
            splitStarts = new long[splits.length];
            for (int k = 0; k < splits.length; k++) {
                long size = splits[k].getTo() - splits[k].getCurrent() + 1;
                long expected = (rows - k + parallelism - 1) / parallelism;
                if (size != expected) {
                    throw new IllegalStateException(
                            String.format(
                                    "bench-datagen cannot spread %d rows over %d subtasks: split %d"
                                            + " holds %d indices, but %d rows leave remainder %d"
                                            + " divided by %d",
                                    rows, parallelism, k, size, expected, k, parallelism));
                }
                splitStarts[k] = splits[k].getCurrent();
            }
            return this;
        }

        @Override
        public RowData map(Long index) {
            return row(rowOf(index));
        }

        /** The row a subtask generates for an index of its split. */
        long rowOf(long index) {
            int p = splitStarts.length;
            if (p == 1) {
                return index;
            }
            int k = Arrays.binarySearch(splitStarts, index);
            if (k < 0) {
                k = -k - 2;
            }
            return k + (index - splitStarts[k]) * p;
        }

        /** The id of row i: i + 1, or with keys the key that row i writes. */
        long id(long i) {
            return keys > 0 ? Math.floorMod(i * stride, keys) + 1 : i + 1;
        }

        /** Row i. */
        RowData row(long i) {
            long h = mix(i);
            return GenericRowData.of(
                    id(i),
                    kOfHash(h),
                    StringData.fromString(text(h)),
                    StringData.fromString(text(mix(h))),
                    (h >>> 11) * 0x1.0p-53 * 1000,
                    (int) (h >>> 40) & 0xFFFF,
                    TimestampData.fromEpochMillis(1_764_000_000_000L + i * 10),
                    (h & 1) == 0);
        }

        /** Column k of row i, cheaper than the whole row: uniform over 0..999. */
        int k(long i) {
            return kOfHash(mix(i));
        }

        private static int kOfHash(long h) {
            return (int) Math.floorMod(h, 1000);
        }

        private static String text(long h) {
            char[] chars = new char[16];
            for (int c = 0; c < chars.length; c++) {
                chars[c] = ALPHABET[(int) Math.floorMod(h, ALPHABET.length)];
                h = h / ALPHABET.length + (h << 7);
            }
            return new String(chars);
        }

        static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }
    }
}
