package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.bucket.RowRouter;
import dev.tarn.format.schema.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link LookupShuffle} routes a join key to the subtask whose share holds the bucket the writer's
 * {@link RowRouter} gives the whole row, for every type the writer buckets by, a composite key and
 * a partition column, over many random rows.
 */
class LookupShuffleTest {

    private static final int BUCKETS = 7;

    static Stream<Arguments> keyTypes() {
        return Stream.of(
                Arguments.of(
                        new TinyIntType(false), (Function<Random, Object>) r -> (byte) r.nextInt()),
                Arguments.of(
                        new SmallIntType(false),
                        (Function<Random, Object>) r -> (short) r.nextInt()),
                Arguments.of(new IntType(false), (Function<Random, Object>) Random::nextInt),
                Arguments.of(new BigIntType(false), (Function<Random, Object>) Random::nextLong),
                Arguments.of(
                        new DecimalType(false, 10, 2),
                        (Function<Random, Object>)
                                r -> DecimalData.fromUnscaledLong(r.nextInt(), 10, 2)),
                Arguments.of(
                        new DecimalType(false, 38, 10),
                        (Function<Random, Object>)
                                r ->
                                        DecimalData.fromBigDecimal(
                                                BigDecimal.valueOf(r.nextLong(), 10), 38, 10)),
                Arguments.of(
                        new VarCharType(false, VarCharType.MAX_LENGTH),
                        (Function<Random, Object>)
                                r -> StringData.fromString("k-" + r.nextInt(100000) + "-ø")),
                Arguments.of(
                        new VarBinaryType(false, VarBinaryType.MAX_LENGTH),
                        (Function<Random, Object>)
                                r -> {
                                    byte[] bytes = new byte[r.nextInt(12)];
                                    r.nextBytes(bytes);
                                    return bytes;
                                }),
                Arguments.of(new DateType(false), (Function<Random, Object>) r -> r.nextInt(40000)),
                Arguments.of(
                        new TimestampType(false, 3),
                        (Function<Random, Object>)
                                r -> TimestampData.fromEpochMillis(r.nextLong() >> 20)),
                Arguments.of(
                        new TimestampType(false, 6),
                        (Function<Random, Object>)
                                r ->
                                        TimestampData.fromEpochMillis(
                                                r.nextLong() >> 20, r.nextInt(1000) * 1000)),
                Arguments.of(
                        new BooleanType(false), (Function<Random, Object>) Random::nextBoolean));
    }

    private static TableSchema schema(List<LogicalType> keyTypes, boolean partitioned) {
        List<LogicalType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        types.add(VarCharType.STRING_TYPE);
        names.add("v");
        for (int i = 0; i < keyTypes.size(); i++) {
            types.add(keyTypes.get(i));
            names.add("k" + i);
            keys.add("k" + i);
        }
        types.add(new VarCharType(false, VarCharType.MAX_LENGTH));
        names.add("p");
        if (partitioned) {
            keys.add("p");
        }
        RowType rowType =
                RowType.of(types.toArray(new LogicalType[0]), names.toArray(new String[0]));
        return TableSchema.create(
                rowType,
                partitioned ? List.of("p") : List.of(),
                keys,
                Map.of("bucket", String.valueOf(BUCKETS)),
                null);
    }

    /**
     * For random rows of {@code schema}, the join key (the key columns reversed: p first, then the
     * k's from last to first) is routed where the writer's bucket of the row says.
     */
    private static void checkAgainstWriter(
            TableSchema schema, List<Function<Random, Object>> values, boolean partitioned) {
        List<String> join = new ArrayList<>();
        if (partitioned) {
            join.add("p");
        }
        for (int i = values.size() - 1; i >= 0; i--) {
            join.add("k" + i);
        }
        LookupShuffle shuffle = LookupShuffle.of(schema, BUCKETS, join).orElseThrow();
        RowRouter router = new RowRouter(schema, BUCKETS);
        Random random = new Random(values.size() * 31L + (partitioned ? 1 : 0));
        int[] perBucket = new int[BUCKETS];
        for (int n = 0; n < 2000; n++) {
            GenericRowData row = new GenericRowData(values.size() + 2);
            row.setField(0, StringData.fromString("value " + n));
            for (int i = 0; i < values.size(); i++) {
                row.setField(1 + i, values.get(i).apply(random));
            }
            row.setField(values.size() + 1, StringData.fromString("2026-01-0" + random.nextInt(4)));
            GenericRowData key = new GenericRowData(join.size());
            for (int i = 0; i < join.size(); i++) {
                key.setField(i, row.getField(schema.fieldIndex(join.get(i))));
            }
            int bucket = router.bucket(row);
            perBucket[bucket]++;
            for (int subtasks : new int[] {1, 2, 3, 5, 8}) {
                assertThat(shuffle.subtask(key, subtasks))
                        .as("row %s among %d subtasks", row, subtasks)
                        .isEqualTo(BucketChannels.channel(router.partition(row), bucket, subtasks));
            }
        }
        assertThat(java.util.Arrays.stream(perBucket).filter(c -> c > 0).count())
                .as("buckets the rows fall in")
                .isGreaterThan(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyTypes")
    void routesLikeTheWriterForEveryKeyType(LogicalType type, Function<Random, Object> value) {
        checkAgainstWriter(schema(List.of(type), false), List.of(value), false);
        checkAgainstWriter(schema(List.of(type), true), List.of(value), true);
    }

    @Test
    void routesACompositeKeyLikeTheWriter() {
        List<LogicalType> types =
                List.of(
                        new IntType(false),
                        new VarCharType(false, VarCharType.MAX_LENGTH),
                        new TimestampType(false, 6));
        List<Function<Random, Object>> values =
                List.of(
                        Random::nextInt,
                        r -> StringData.fromString("s" + r.nextInt(1000)),
                        r -> TimestampData.fromEpochMillis(r.nextInt(), r.nextInt(1000)));
        checkAgainstWriter(schema(types, true), values, true);
        checkAgainstWriter(schema(types, false), values, false);
    }

    @Test
    void noShuffleWhereTheJoinKeyDoesNotDetermineTheBucket() {
        TableSchema schema = schema(List.of(new IntType(false), new IntType(false)), true);
        assertThat(LookupShuffle.of(schema, BUCKETS, List.of("k0", "k1", "p"))).isPresent();
        assertThat(LookupShuffle.of(schema, BUCKETS, List.of("k0", "p"))).isEmpty();
        assertThat(LookupShuffle.of(schema, BUCKETS, List.of("k0", "k1"))).isEmpty();
        assertThat(LookupShuffle.of(schema, BUCKETS, List.of("v"))).isEmpty();
        assertThat(LookupShuffle.of(schema, -1, List.of("k0", "k1", "p"))).isEmpty();
    }
}
