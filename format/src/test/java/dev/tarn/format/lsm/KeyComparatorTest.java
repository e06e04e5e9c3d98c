package dev.tarn.format.lsm;

import static dev.tarn.format.lsm.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KeyComparatorTest {

    /** Per key type, values in ascending order, in Flink's internal representation. */
    static Stream<Arguments> ascendingValues() {
        return Stream.of(
                Arguments.of(new BooleanType(false), List.of(false, true)),
                Arguments.of(
                        new TinyIntType(false),
                        List.of((byte) -128, (byte) -1, (byte) 0, (byte) 1, (byte) 127)),
                Arguments.of(
                        new SmallIntType(false),
                        List.of(
                                Short.MIN_VALUE,
                                (short) -1,
                                (short) 0,
                                (short) 300,
                                Short.MAX_VALUE)),
                Arguments.of(
                        new IntType(false),
                        List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE)),
                Arguments.of(
                        new BigIntType(false),
                        List.of(Long.MIN_VALUE, -1L, 0L, 1L << 40, Long.MAX_VALUE)),
                Arguments.of(
                        new FloatType(false),
                        List.of(
                                Float.NEGATIVE_INFINITY,
                                -1.5f,
                                -Float.MIN_VALUE,
                                -0.0f,
                                0.0f,
                                Float.MIN_VALUE,
                                2.5f,
                                Float.POSITIVE_INFINITY,
                                Float.NaN)),
                Arguments.of(
                        new DoubleType(false),
                        List.of(
                                Double.NEGATIVE_INFINITY,
                                -1e300,
                                -0.0d,
                                0.0d,
                                1e-300,
                                7.0d,
                                Double.POSITIVE_INFINITY,
                                Double.NaN)),
                Arguments.of(
                        new DecimalType(false, 10, 2),
                        decimals(10, 2, "-99999999.99", "-1.00", "0.00", "0.01", "12345678.90")),
                Arguments.of(
                        new DecimalType(false, 30, 5),
                        decimals(
                                30,
                                5,
                                "-1234567890123456789012.12345",
                                "-0.00001",
                                "0",
                                "1",
                                "1234567890123456789012.12345")),
                Arguments.of(
                        new VarCharType(false, 100),
                        List.of(
                                "",
                                "a",
                                "a\u0000",
                                "ab",
                                "abcdefg",
                                "abcdefgh",
                                "abcdefghi",
                                "b",
                                "\u00e9",
                                "\uffff",
                                "\ud83d\ude00")),
                Arguments.of(new CharType(false, 3), List.of("a  ", "ab ", "abc", "b  ")),
                Arguments.of(
                        new VarBinaryType(false, 20),
                        List.of(
                                bytes(),
                                bytes(0),
                                bytes(0, 0),
                                bytes(1),
                                bytes(1, 2, 3, 4, 5, 6, 7, 8),
                                bytes(1, 2, 3, 4, 5, 6, 7, 8, 0),
                                bytes(0x80),
                                bytes(0xFF, 0xFF))),
                Arguments.of(
                        new BinaryType(false, 2),
                        List.of(bytes(0, 0), bytes(0, 1), bytes(0x7F, 0), bytes(0x80, 0))),
                Arguments.of(new DateType(false), List.of(-1, 0, 19000)),
                Arguments.of(new TimeType(false, 3), List.of(0, 1000, 86_399_999)),
                Arguments.of(
                        new TimestampType(false, 3), List.of(ts(-1000, 0), ts(0, 0), ts(1, 0))),
                Arguments.of(
                        new TimestampType(false, 9),
                        List.of(ts(-1, 999_999), ts(0, 0), ts(0, 1), ts(0, 999_999), ts(1, 0))),
                Arguments.of(new LocalZonedTimestampType(false, 3), List.of(ts(-5, 0), ts(5, 0))),
                Arguments.of(
                        new LocalZonedTimestampType(false, 6),
                        List.of(ts(5, 0), ts(5, 1000), ts(6, 0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ascendingValues")
    void ordersEveryKeyTypeAlikeForGenericAndBinaryRows(LogicalType type, List<Object> values) {
        // The key sits at position 1 so that field offsets are exercised.
        RowType rowType = RowType.of(new IntType(), type);
        KeyComparator keys = new KeyComparator(rowType, new int[] {1});
        RowCopier copier = new RowCopier(rowType);
        List<RowData> generic = new ArrayList<>();
        List<BinaryRowData> binary = new ArrayList<>();
        for (Object value : values) {
            generic.add(row(7, value));
            binary.add(copier.copy(row(7, value)));
        }
        for (int i = 0; i < values.size(); i++) {
            for (int j = 0; j < values.size(); j++) {
                int expected = Integer.signum(Integer.compare(i, j));
                String pair = values.get(i) + " vs " + values.get(j);
                assertThat(Integer.signum(keys.compare(generic.get(i), generic.get(j))))
                        .as("generic " + pair)
                        .isEqualTo(expected);
                assertThat(Integer.signum(keys.compare(binary.get(i), binary.get(j))))
                        .as("binary " + pair)
                        .isEqualTo(expected);
                assertThat(Integer.signum(keys.compare(generic.get(i), binary.get(j))))
                        .as("mixed " + pair)
                        .isEqualTo(expected);
                long pi = keys.prefix(binary.get(i));
                long pj = keys.prefix(binary.get(j));
                if (i < j) {
                    assertThat(pi).as("prefix " + pair).isLessThanOrEqualTo(pj);
                    if (keys.prefixDecides()) {
                        assertThat(pi).as("deciding prefix " + pair).isLessThan(pj);
                    }
                }
            }
        }
    }

    @Test
    void comparesCompositeKeysFieldByFieldInKeyOrder() {
        RowType rowType =
                RowType.of(new IntType(false), new VarCharType(false, 10), new BigIntType());
        // Key (name, id): the declared key order, not the column order, decides.
        KeyComparator keys = new KeyComparator(rowType, new int[] {1, 0});
        assertThat(keys.compare(row(2, "a", 0L), row(1, "b", 0L))).isNegative();
        assertThat(keys.compare(row(1, "a", 0L), row(2, "a", 0L))).isNegative();
        assertThat(keys.compare(row(1, "a", 5L), row(1, "a", 9L)))
                .as("non-key fields are ignored")
                .isZero();
        assertThat(keys.prefixDecides()).isFalse();
        assertThat(new KeyComparator(rowType, new int[] {0, 1}).prefixDecides()).isFalse();
        assertThat(new KeyComparator(rowType, new int[] {0}).prefixDecides()).isTrue();
    }

    @Test
    void ordersStringsByUtf8BytesNotUtf16() {
        RowType rowType = RowType.of(new VarCharType(false, 10));
        KeyComparator keys = new KeyComparator(rowType, new int[] {0});
        // U+FFFF is EF BF BF in UTF-8, the emoji F0 9F 98 80; in UTF-16 the emoji sorts first.
        assertThat("\uffff".compareTo("\ud83d\ude00")).isPositive();
        assertThat(keys.compare(row("\uffff"), row("\ud83d\ude00"))).isNegative();
    }

    @Test
    void rejectsKeyTypesWithoutAnOrder() {
        RowType rowType =
                RowType.of(new LogicalType[] {new ArrayType(new IntType())}, new String[] {"tags"});
        assertThatThrownBy(() -> new KeyComparator(rowType, new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Key field 'tags' has type ARRAY<INT>");
        assertThatThrownBy(() -> new KeyComparator(rowType, new int[] {3}))
                .hasMessageContaining("Key field index 3 is outside the 1 fields");
        assertThatThrownBy(() -> new KeyComparator(rowType, new int[0]))
                .hasMessageContaining("empty primary key");
    }

    @Test
    void describesKeysForErrorMessages() {
        RowType rowType = RowType.of(new IntType(false), new VarCharType(false, 10));
        KeyComparator keys = new KeyComparator(rowType, new int[] {0, 1});
        assertThat(keys.describe(row(7, "x"))).isEqualTo("[7, x]");
    }

    private static List<Object> decimals(int precision, int scale, String... values) {
        List<Object> result = new ArrayList<>();
        for (String value : values) {
            result.add(DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale));
        }
        return result;
    }

    private static byte[] bytes(int... values) {
        byte[] result = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            result[i] = (byte) values[i];
        }
        return result;
    }

    private static TimestampData ts(long millis, int nanos) {
        return TimestampData.fromEpochMillis(millis, nanos);
    }
}
