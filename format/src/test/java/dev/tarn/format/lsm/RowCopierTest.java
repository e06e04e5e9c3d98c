package dev.tarn.format.lsm;

import static dev.tarn.format.lsm.TestRows.row;
import static dev.tarn.format.lsm.TestRows.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BitmapType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.VariantType;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.bitmap.Bitmap;
import org.apache.flink.types.variant.Variant;
import org.junit.jupiter.api.Test;

public class RowCopierTest {

    private static final RowType NESTED = RowType.of(new IntType(), new VarCharType(20));

    /** Every storable type, nested ones with variable-length parts inside. */
    public static final RowType ALL_TYPES =
            RowType.of(
                    new LogicalType[] {
                        new BooleanType(),
                        new TinyIntType(),
                        new SmallIntType(),
                        new IntType(),
                        new BigIntType(),
                        new FloatType(),
                        new DoubleType(),
                        new DecimalType(10, 2),
                        new DecimalType(30, 5),
                        new VarCharType(100),
                        new VarCharType(100),
                        new VarBinaryType(100),
                        new VarBinaryType(100),
                        new TimestampType(3),
                        new TimestampType(9),
                        new LocalZonedTimestampType(6),
                        NESTED,
                        new ArrayType(new VarCharType(20)),
                        new ArrayType(new IntType()),
                        new ArrayType(NESTED),
                        new MapType(new VarCharType(20), new BigIntType()),
                        new MultisetType(new VarCharType(20)),
                        new RawType<>(String.class, StringSerializer.INSTANCE),
                        new VariantType(),
                        new BitmapType()
                    },
                    new String[] {
                        "bool",
                        "tiny",
                        "small",
                        "int",
                        "big",
                        "float",
                        "double",
                        "dec",
                        "wide",
                        "short_str",
                        "long_str",
                        "short_bin",
                        "long_bin",
                        "ts3",
                        "ts9",
                        "ltz6",
                        "nested",
                        "strings",
                        "ints",
                        "rows",
                        "map",
                        "multiset",
                        "raw",
                        "variant",
                        "bitmap"
                    });

    public static GenericRowData allTypesRow(int seed) {
        Map<StringData, Long> map = new LinkedHashMap<>();
        map.put(StringData.fromString("one"), 1L);
        map.put(StringData.fromString("a longer key " + seed), null);
        Map<StringData, Integer> multiset = new LinkedHashMap<>();
        multiset.put(StringData.fromString("m"), 2);
        return row(
                true,
                (byte) -3,
                (short) 300,
                seed,
                1L << 40,
                1.5f,
                -2.25,
                DecimalData.fromBigDecimal(new BigDecimal("-12345.67"), 10, 2),
                DecimalData.fromBigDecimal(new BigDecimal("1234567890123456789012.12345"), 30, 5),
                "ab",
                "a string longer than seven bytes, \u00e9\ud83d\ude00 " + seed,
                new byte[] {1, 2},
                new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
                TimestampData.fromEpochMillis(-1234),
                TimestampData.fromEpochMillis(1234, 567),
                TimestampData.fromEpochMillis(99, 1000),
                GenericRowData.of(5, StringData.fromString("nested string of some length")),
                new GenericArrayData(
                        new Object[] {
                            StringData.fromString("x"),
                            null,
                            StringData.fromString("a string in an array, long enough")
                        }),
                new GenericArrayData(new int[] {1, 2, 3}),
                new GenericArrayData(
                        new Object[] {
                            GenericRowData.of(1, null),
                            null,
                            GenericRowData.of(null, StringData.fromString("row in array"))
                        }),
                new GenericMapData(map),
                new GenericMapData(multiset),
                RawValueData.fromObject("raw " + seed),
                Variant.newBuilder().of("variant " + seed),
                Bitmap.fromArray(new int[] {1, 5, 9}));
    }

    @Test
    void copiesEveryTypeIncludingNestedValuesIntoABinaryRow() {
        RowCopier copier = new RowCopier(ALL_TYPES);
        GenericRowData original = allTypesRow(1);
        BinaryRowData copy = copier.copy(original);
        assertThat(values(copy, ALL_TYPES)).isEqualTo(values(original, ALL_TYPES));
        assertThat(copy.getSizeInBytes() % 8).as("padded to words").isZero();
    }

    @Test
    void copiesNullsInEveryPosition() {
        RowCopier copier = new RowCopier(ALL_TYPES);
        GenericRowData nulls = new GenericRowData(ALL_TYPES.getFieldCount());
        BinaryRowData copy = copier.copy(nulls);
        for (int i = 0; i < ALL_TYPES.getFieldCount(); i++) {
            assertThat(copy.isNullAt(i)).as(ALL_TYPES.getFieldNames().get(i)).isTrue();
        }
    }

    @Test
    void copiesAreIndependentOfTheReusedBuffer() {
        RowCopier copier = new RowCopier(ALL_TYPES);
        BinaryRowData first = copier.copy(allTypesRow(1));
        BinaryRowData second = copier.copy(allTypesRow(2));
        assertThat(values(first, ALL_TYPES)).isEqualTo(values(allTypesRow(1), ALL_TYPES));
        assertThat(values(second, ALL_TYPES)).isEqualTo(values(allTypesRow(2), ALL_TYPES));
    }

    @Test
    void copiesBinaryRowsByteForByteAndKeepsTheirKind() {
        RowCopier copier = new RowCopier(ALL_TYPES);
        GenericRowData original = allTypesRow(3);
        original.setRowKind(RowKind.UPDATE_AFTER);
        BinaryRowData binary = copier.copy(original);
        BinaryRowData again = copier.copy(binary);
        assertThat(again).isEqualTo(binary).isNotSameAs(binary);
        assertThat(again.getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);

        KeyValue kv = copier.copy(new KeyValue(9, RowKind.DELETE, binary));
        assertThat(kv.sequence()).isEqualTo(9);
        assertThat(kv.row().getRowKind()).as("the key value's kind wins").isEqualTo(RowKind.DELETE);
        assertThat(values(kv.row(), ALL_TYPES)).isEqualTo(values(original, ALL_TYPES));
    }
}
