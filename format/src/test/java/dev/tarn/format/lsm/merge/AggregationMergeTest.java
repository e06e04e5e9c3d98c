package dev.tarn.format.lsm.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.TestRows;
import dev.tarn.format.schema.MergeEngine;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class AggregationMergeTest {

    /**
     * One aggregated column of a test table: its function (null for the default) and, per version
     * fed, its value; {@code merged} is the expected aggregate.
     */
    private record Column(
            String name, LogicalType type, String function, List<Object> values, Object merged) {}

    private static Column column(
            String name, LogicalType type, String function, Object merged, Object... values) {
        return new Column(name, type, function, Arrays.asList(values), merged);
    }

    /** Merges one version per index of the columns' values, of the given kinds, key 7. */
    private static List<Object> merge(
            List<Column> columns, Map<String, String> extraOptions, RowKind... kinds) {
        List<LogicalType> types = new ArrayList<>(List.of(new IntType(false)));
        List<String> names = new ArrayList<>(List.of("k"));
        Map<String, String> options = new HashMap<>(extraOptions);
        for (Column column : columns) {
            types.add(column.type());
            names.add(column.name());
            if (column.function() != null) {
                options.put("fields." + column.name() + ".aggregate-function", column.function());
            }
        }
        RowType table = RowType.of(types.toArray(new LogicalType[0]), names.toArray(new String[0]));
        MergeFunction function =
                MergeFunctions.create(MergeEngine.AGGREGATION, table, new int[] {0}, options);
        function.reset();
        for (int v = 0; v < kinds.length; v++) {
            GenericRowData row = new GenericRowData(columns.size() + 1);
            row.setField(0, 7);
            for (int c = 0; c < columns.size(); c++) {
                Object value = columns.get(c).values().get(v);
                row.setField(c + 1, value instanceof String s ? StringData.fromString(s) : value);
            }
            function.add(new KeyValue(v + 1, kinds[v], row));
        }
        KeyValue result = function.result();
        assertThat(result.kind()).as("an aggregate is always an insert").isEqualTo(RowKind.INSERT);
        assertThat(result.sequence()).isEqualTo(kinds.length);
        List<Object> values = TestRows.values(result.row(), table);
        return values.subList(1, values.size());
    }

    private static List<Object> expected(List<Column> columns) {
        return columns.stream().map(Column::merged).toList();
    }

    private static DecimalData money(String value) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), 10, 2);
    }

    @Test
    void everyFunctionFoldsTheVersionsInSequenceOrder() {
        List<Column> columns =
                List.of(
                        column("total", new BigIntType(), "sum", 15L, 10L, null, 5L),
                        column("low", new IntType(), "min", 3, 5, 3, null),
                        column("high", new VarCharType(9), "max", "c", "b", "c", "a"),
                        column("last", new IntType(), "last_value", null, 1, 2, null),
                        column("last_nn", new IntType(), "last_non_null_value", 3, 1, null, 3),
                        column("first", new IntType(), "first_value", null, null, 2, 3),
                        column("first_nn", new IntType(), "first_non_null_value", 2, null, 2, 3),
                        column(
                                "names",
                                new VarCharType(50),
                                "listagg",
                                "ann,bob",
                                "ann",
                                null,
                                "bob"),
                        column("all", new BooleanType(), "bool_and", false, true, null, false),
                        column("any", new BooleanType(), "bool_or", true, false, null, true),
                        column(
                                "money",
                                new DecimalType(10, 2),
                                "sum",
                                money("3.30"),
                                money("1.10"),
                                money("2.20"),
                                null),
                        column("ratio", new DoubleType(), "sum", 0.75, 0.5, 0.25, null),
                        column(
                                "tiny",
                                new TinyIntType(),
                                "sum",
                                (byte) 44,
                                (byte) 100,
                                (byte) 100,
                                (byte) 100),
                        column("plain", new VarCharType(9), null, "p3", "p1", null, "p3"));
        assertThat(merge(columns, Map.of(), RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.INSERT))
                .isEqualTo(expected(columns));
    }

    @Test
    void retractionsSubtractFromSumsAndClearLastValues() {
        List<Column> columns =
                List.of(
                        column("total", new BigIntType(), "sum", 7L, 10L, 3L),
                        column("last", new IntType(), "last_value", null, 4, 4),
                        column("last_nn", new IntType(), null, null, 8, 8),
                        column("kept", new VarCharType(9), null, "x", "x", null));
        assertThat(merge(columns, Map.of(), RowKind.INSERT, RowKind.DELETE))
                .isEqualTo(expected(columns));
    }

    @Test
    void aRetractionTheFunctionCannotTakeBackFailsUnlessIgnored() {
        List<Column> columns =
                List.of(
                        column("total", new BigIntType(), "sum", 0L, 1L, 1L),
                        column("low", new IntType(), "min", 1, 1, 1),
                        column("names", new VarCharType(9), "listagg", "n", "n", "n"),
                        column("any", new BooleanType(), "bool_or", true, true, true));
        assertThatThrownBy(() -> merge(columns, Map.of(), RowKind.INSERT, RowKind.UPDATE_BEFORE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Aggregate function 'min' of field 'low' cannot retract a value; set"
                                + " 'fields.low.ignore-retract' = 'true' to ignore retractions of"
                                + " this"
                                + " field");
        Map<String, String> ignore = new HashMap<>();
        for (String field : List.of("low", "names", "any")) {
            ignore.put("fields." + field + ".ignore-retract", "true");
        }
        assertThat(merge(columns, ignore, RowKind.INSERT, RowKind.UPDATE_BEFORE))
                .isEqualTo(expected(columns));
    }

    @Test
    void listAggUsesTheConfiguredDelimiter() {
        List<Column> columns =
                List.of(column("names", new VarCharType(9), "listagg", "a | b", "a", "b"));
        assertThat(
                        merge(
                                columns,
                                Map.of("fields.names.list-agg-delimiter", " | "),
                                RowKind.INSERT,
                                RowKind.INSERT))
                .isEqualTo(expected(columns));
    }

    @Test
    void theDefaultFunctionCanBeChanged() {
        List<Column> columns =
                List.of(column("plain", new VarCharType(9), null, "1st", "1st", "2nd"));
        assertThat(
                        merge(
                                columns,
                                Map.of("fields.default-aggregate-function", "first_value"),
                                RowKind.INSERT,
                                RowKind.INSERT))
                .isEqualTo(expected(columns));
    }

    @Test
    void aDecimalSumThatOverflowsItsPrecisionBecomesNull() {
        DecimalData big = DecimalData.fromBigDecimal(new BigDecimal("99.9"), 3, 1);
        DecimalData small = DecimalData.fromBigDecimal(new BigDecimal("0.2"), 3, 1);
        List<Column> columns = List.of(column("d", new DecimalType(3, 1), "sum", null, big, small));
        assertThat(merge(columns, Map.of(), RowKind.INSERT, RowKind.INSERT))
                .isEqualTo(expected(columns));
    }

    @Test
    void rejectsFunctionsThatDoNotFitTheFieldType() {
        assertThatThrownBy(() -> typeCheck(new VarCharType(50), "sum"))
                .hasMessage(
                        "Aggregate function 'sum' (option 'fields.v.aggregate-function')"
                                + " cannot aggregate field 'v' of type VARCHAR(50); it supports"
                                + " TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE and DECIMAL");
        assertThatThrownBy(() -> typeCheck(new BigIntType(), "listagg"))
                .hasMessageContaining(
                        "'listagg' (option 'fields.v.aggregate-function') cannot"
                                + " aggregate field 'v' of type BIGINT; it supports CHAR and"
                                + " VARCHAR");
        assertThatThrownBy(() -> typeCheck(new IntType(), "bool_and"))
                .hasMessageContaining("it supports BOOLEAN");
        assertThatThrownBy(() -> typeCheck(new ArrayType(new IntType()), "max"))
                .hasMessageContaining(
                        "'max' (option 'fields.v.aggregate-function') cannot"
                                + " aggregate field 'v' of type ARRAY<INT>");
        assertThatThrownBy(() -> typeCheck(new IntType(), "avg"))
                .hasMessageStartingWith(
                        "Unknown aggregate function 'avg' in option"
                                + " 'fields.v.aggregate-function'; supported are [sum, min, max,");
        RowType table = RowType.of(new LogicalType[] {new IntType(false)}, new String[] {"k"});
        assertThatThrownBy(
                        () ->
                                MergeFunctions.create(
                                        MergeEngine.AGGREGATION,
                                        table,
                                        new int[] {0},
                                        Map.of("fields.k.aggregate-function", "sum")))
                .hasMessage(
                        "Option 'fields.k.aggregate-function' = 'sum' is not allowed: the"
                                + " field is part of the primary key, which is never aggregated");
    }

    private static void typeCheck(LogicalType type, String function) {
        RowType table =
                RowType.of(new LogicalType[] {new IntType(false), type}, new String[] {"k", "v"});
        MergeFunctions.create(
                MergeEngine.AGGREGATION,
                table,
                new int[] {0},
                Map.of("fields.v.aggregate-function", function));
    }
}
