package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** Rows of a file's schema as rows of a later one: by id, with widened values converted. */
class FieldIdMappingTest {

    private static TableSchema schema(long id, DataField... fields) {
        return new TableSchema(id, List.of(fields), List.of(), List.of(), Map.of(), null);
    }

    @Test
    void readsByIdConvertsWideningsAndFillsNulls() {
        TableSchema file =
                schema(
                        0,
                        new DataField(0, "a", new IntType(), null),
                        new DataField(1, "b", new FloatType(), null),
                        new DataField(2, "c", new DecimalType(5, 2), null),
                        new DataField(3, "d", new CharType(2), null),
                        new DataField(4, "e", new SmallIntType(), null),
                        new DataField(5, "gone", new TinyIntType(), null));
        TableSchema read =
                schema(
                        1,
                        new DataField(6, "added", new IntType(), null),
                        new DataField(3, "d2", VarCharType.STRING_TYPE, null),
                        new DataField(0, "a", new BigIntType(), null),
                        new DataField(1, "b", new DoubleType(), null),
                        new DataField(2, "c", new DecimalType(9, 4), null),
                        new DataField(4, "e", new IntType(), null));
        FieldIdMapping mapping = new FieldIdMapping(read, file, read.rowType());
        assertThat(mapping.fileReadType().getFieldNames()).containsExactly("d", "a", "b", "c", "e");
        GenericRowData stored =
                GenericRowData.ofKind(
                        RowKind.UPDATE_AFTER,
                        StringData.fromString("xy"),
                        7,
                        1.25f,
                        DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2),
                        (short) 3);
        RowData row = mapping.apply(stored);
        assertThat(row.getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(row.isNullAt(0)).isTrue();
        assertThat(row.getString(1).toString()).isEqualTo("xy");
        assertThat(row.getLong(2)).isEqualTo(7L);
        assertThat(row.getDouble(3)).isEqualTo(1.25);
        assertThat(row.getDecimal(4, 9, 4).toBigDecimal()).isEqualTo(new BigDecimal("123.4500"));
        assertThat(row.getInt(5)).isEqualTo(3);
    }

    @Test
    void aNarrowingReadIsRefusedNamingTheColumnAndTheSchemas() {
        TableSchema newer = schema(3, new DataField(0, "a", new BigIntType(), null));
        TableSchema older = schema(2, new DataField(0, "a", new IntType(), null));
        assertThatThrownBy(() -> new FieldIdMapping(older, newer, older.rowType()))
                .hasMessage(
                        "Cannot read column a of a file of schema 3 through schema 2: Cannot read"
                                + " a column stored as BIGINT as INT: not a widening (a file of a"
                                + " newer schema read through an older one?)");
        assertThatThrownBy(
                        () ->
                                FieldIdMapping.conversion(
                                        new DecimalType(10, 4), new DecimalType(10, 2)))
                .hasMessageContaining("not a widening");
    }
}
