package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * Column defaults ({@code fields.<column>.default-value}): parsed as the column's type, required
 * for a NOT NULL column that is added, carried through a rename, removed with a drop, and kept by a
 * NOT NULL column.
 */
class ColumnDefaultsTest {

    private static final TableSchema BASE =
            TableSchema.create(
                    RowType.of(
                            new LogicalType[] {new BigIntType(false), new IntType()},
                            new String[] {"id", "n"}),
                    List.of(),
                    List.of(),
                    Map.of(),
                    null);

    private static TableSchema apply(TableSchema schema, SchemaChange... changes) {
        return SchemaChange.apply("db.t", schema, List.of(changes));
    }

    @Test
    void aNotNullColumnIsAddedWithADefaultThatReadsAsItsType() {
        TableSchema next =
                apply(BASE, new AddColumn("tier", new IntType(false), null, null, " 7 "));
        assertThat(next.options()).containsEntry("fields.tier.default-value", " 7 ");
        assertThat(next.defaultValue("tier")).isEqualTo(7);
        assertThat(next.defaultValue("n")).isNull();
        // A default set before the column exists applies once it is added.
        TableSchema pending = BASE.withOptions(Map.of("fields.price.default-value", "1.50"));
        TableSchema priced =
                apply(pending, new AddColumn("price", new DecimalType(false, 6, 2), null, null));
        assertThat(priced.defaultValue("price"))
                .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("1.50"), 6, 2));
        assertThat(ColumnDefaults.parse(VarCharType.STRING_TYPE, " a b"))
                .isEqualTo(StringData.fromString(" a b"));
        assertThat(ColumnDefaults.parse(new BooleanType(), "TRUE")).isEqualTo(true);
        assertThat(ColumnDefaults.parse(new DateType(), "1970-01-11")).isEqualTo(10);
    }

    @Test
    void aDefaultThatIsNotAValueOfItsColumnsTypeIsRefused() {
        assertThatThrownBy(
                        () ->
                                apply(
                                        BASE,
                                        new AddColumn("tier", new IntType(false), null, null, "x")))
                .hasMessage(
                        "Option 'fields.tier.default-value' of table db.t: default value 'x' of"
                                + " column tier is not a value of its type INT NOT NULL: it does"
                                + " not parse (For input string: \"x\")");
        assertThatThrownBy(
                        () ->
                                apply(
                                        BASE,
                                        new AddColumn(
                                                "d", new DecimalType(4, 2), null, null, "123.4")))
                .hasMessageEndingWith(
                        "column d is not a value of its type DECIMAL(4, 2): it has more than 2"
                                + " digits before the point");
        assertThatThrownBy(
                        () ->
                                apply(
                                        BASE,
                                        new AddColumn("s", new VarCharType(2), null, null, "abc")))
                .hasMessageEndingWith("it has 3 characters, more than 2");
        // Set by ALTER TABLE on an existing column, it is checked the same way.
        TableSchema set = BASE.withOptions(Map.of("fields.n.default-value", "1.5"));
        assertThatThrownBy(() -> SchemaChange.checkDefaults("db.t", BASE, set))
                .hasMessageStartingWith(
                        "Option 'fields.n.default-value' of table db.t: default value '1.5' of"
                                + " column n is not a value of its type INT");
        assertThat(TableOptions.scope("fields.n.default-value"))
                .hasValue(TableOptions.OptionScope.ALTER);
    }

    @Test
    void aDefaultFollowsItsColumnThroughARenameAndGoesWithADrop() {
        TableSchema added = apply(BASE, new AddColumn("tier", new IntType(false), null, null, "3"));
        TableSchema renamed = apply(added, new RenameColumn("tier", "level"));
        assertThat(renamed.options())
                .containsEntry("fields.level.default-value", "3")
                .doesNotContainKey("fields.tier.default-value");
        assertThat(renamed.defaultValue("level")).isEqualTo(3);
        TableSchema dropped = apply(renamed, new DropColumn("level"));
        assertThat(dropped.options()).isEmpty();
        // A column added later under the old name has no default from the dropped one.
        assertThat(apply(dropped, new AddColumn("level", new IntType(), null, null)).options())
                .isEmpty();
    }

    @Test
    void aNotNullColumnKeepsItsDefault() {
        TableSchema added = apply(BASE, new AddColumn("tier", new IntType(false), null, null, "3"));
        Map<String, String> changed = new HashMap<>(added.options());
        changed.put("fields.tier.default-value", "4");
        SchemaChange.checkDefaults("db.t", added, added.withOptions(changed));
        assertThatThrownBy(
                        () ->
                                SchemaChange.checkDefaults(
                                        "db.t", added, added.withOptions(Map.of())))
                .hasMessage(
                        "Cannot alter table db.t: column tier is NOT NULL and has the default '3'"
                                + " (option 'fields.tier.default-value'), which rows of files"
                                + " written before the column was added read as; it may change,"
                                + " but not be removed");
    }
}
