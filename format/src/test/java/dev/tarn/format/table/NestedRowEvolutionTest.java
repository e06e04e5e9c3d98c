package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ROW column gains nested fields at its end (and widens nested fields): values written before
 * read with the new fields null; renaming, dropping or moving a nested field, or adding a NOT NULL
 * one, is refused naming the field and the reason.
 */
class NestedRowEvolutionTest {

    private static RowType address(LogicalType... extra) {
        LogicalType[] types = new LogicalType[2 + extra.length];
        String[] names = new String[types.length];
        types[0] = new IntType();
        names[0] = "zip";
        types[1] = VarCharType.STRING_TYPE;
        names[1] = "city";
        for (int i = 0; i < extra.length; i++) {
            types[2 + i] = extra[i];
            names[2 + i] = "x" + i;
        }
        return RowType.of(types, names);
    }

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), address()},
                    new String[] {"k", "address"});

    @TempDir java.nio.file.Path dir;

    @Test
    void aRowGainsFieldsAtItsEndAndOldValuesReadThemAsNull() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        t.write(List.of(GenericRowData.of(1L, GenericRowData.of(10, StringData.fromString("a")))));
        RowType wider =
                RowType.of(
                        new LogicalType[] {
                            new BigIntType(), VarCharType.STRING_TYPE, new IntType()
                        },
                        new String[] {"zip", "city", "floor"});
        t.evolve(List.of(new UpdateColumnType("address", wider)));
        t.write(
                List.of(
                        GenericRowData.of(
                                2L, GenericRowData.of(20L, StringData.fromString("b"), 3))));
        List<RowData> rows = new java.util.ArrayList<>();
        for (var split : t.table().newScan().plan().splits()) {
            try (var reader = t.table().newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    RowData a = r.getRow(1, 3);
                    rows.add(
                            GenericRowData.of(
                                    r.getLong(0),
                                    a.getLong(0),
                                    a.getString(1).toString(),
                                    a.isNullAt(2) ? null : a.getInt(2)));
                }
            }
        }
        assertThat(rows)
                .extracting(Object::toString)
                .containsExactlyInAnyOrder("+I(1,10,a,null)", "+I(2,20,b,3)");
    }

    @Test
    void nestedFieldsMayNotBeRenamedDroppedOrAddedNotNull() {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        RowType renamed =
                RowType.of(
                        new LogicalType[] {new IntType(), VarCharType.STRING_TYPE},
                        new String[] {"zip", "town"});
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t",
                                        t.schema(),
                                        List.of(new UpdateColumnType("address", renamed))))
                .hasMessageContaining(
                        "of table db.t: nested field city would become town; nested fields are"
                                + " matched by position, so they may not be renamed, dropped or"
                                + " moved, only added at the end");
        RowType dropped = RowType.of(new LogicalType[] {new IntType()}, new String[] {"zip"});
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t",
                                        t.schema(),
                                        List.of(new UpdateColumnType("address", dropped))))
                .hasMessageEndingWith(
                        "a ROW may not lose fields; nested fields may only be added at its end");
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t",
                                        t.schema(),
                                        List.of(
                                                new UpdateColumnType(
                                                        "address", address(new IntType(false))))))
                .hasMessageEndingWith(
                        "added nested field x0 is NOT NULL, but values written before have none");
    }
}
