package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.MoveColumn;
import dev.tarn.format.schema.SchemaChange.Position;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.UpdateColumnComment;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import dev.tarn.format.schema.TableSchema.DataField;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Each column change as a next schema version: ids kept, new ids never reused, refusals named. */
class SchemaChangeTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new VarCharType(10),
                        new IntType(false),
                        new DecimalType(10, 2),
                        VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "name", "n", "balance", "dt"});

    private static final TableSchema BASE =
            TableSchema.create(
                    TYPE, List.of("dt"), List.of("id", "dt"), Map.of("bucket", "2"), null);

    private static TableSchema apply(SchemaChange... changes) {
        return SchemaChange.apply("db.t", BASE, List.of(changes));
    }

    private static List<String> names(TableSchema s) {
        return s.fieldNames();
    }

    @Test
    void addTakesNewIdsAtItsPositionAndNeverReusesADroppedOne() {
        TableSchema added =
                apply(
                        new AddColumn("email", VarCharType.STRING_TYPE, "primary address", null),
                        new AddColumn("tier", new IntType(), null, Position.after("name")),
                        new AddColumn("first", new IntType(), null, Position.FIRST));
        assertThat(added.id()).isEqualTo(1);
        assertThat(names(added))
                .containsExactly("first", "id", "name", "tier", "n", "balance", "dt", "email");
        assertThat(added.fields().get(7)).isEqualTo(field(5, "email", "primary address"));
        assertThat(added.fields().get(3).id()).isEqualTo(6);
        assertThat(added.fields().get(0).id()).isEqualTo(7);
        assertThat(added.highestFieldId()).isEqualTo(7);

        TableSchema dropped = SchemaChange.apply("db.t", added, List.of(new DropColumn("first")));
        TableSchema again =
                SchemaChange.apply(
                        "db.t",
                        dropped,
                        List.of(new AddColumn("first", new IntType(), null, null)));
        assertThat(again.fields().get(again.fieldIndex("first")).id()).isEqualTo(8);
        assertThat(again.highestFieldId()).isEqualTo(8);
    }

    private static DataField field(int id, String name, String comment) {
        return new DataField(id, name, VarCharType.STRING_TYPE, comment);
    }

    @Test
    void renameMoveCommentAndWideningKeepTheFieldId() {
        TableSchema next =
                apply(
                        new RenameColumn("name", "full_name"),
                        new MoveColumn("balance", Position.FIRST),
                        new MoveColumn("n", Position.after("dt")),
                        new UpdateColumnType("n", new BigIntType()),
                        new UpdateColumnType("balance", new DecimalType(18, 4)),
                        new UpdateColumnType("full_name", VarCharType.STRING_TYPE),
                        new UpdateColumnComment("full_name", "as written"));
        assertThat(names(next)).containsExactly("balance", "id", "full_name", "dt", "n");
        assertThat(next.fields().stream().map(DataField::id)).containsExactly(3, 0, 1, 4, 2);
        assertThat(next.fieldType("n")).isEqualTo(new BigIntType());
        assertThat(next.fieldType("balance")).isEqualTo(new DecimalType(18, 4));
        assertThat(next.fields().get(2).description()).isEqualTo("as written");
        assertThat(next.highestFieldId()).isEqualTo(4);
    }

    @Test
    void everyWideningOfTheRulesIsAllowed() {
        assertThat(TypeWidening.refusal(new IntType(), new BigIntType())).isNull();
        assertThat(TypeWidening.refusal(new SmallIntType(), new IntType())).isNull();
        assertThat(TypeWidening.refusal(new FloatType(), new DoubleType())).isNull();
        assertThat(TypeWidening.refusal(new DecimalType(10, 2), new DecimalType(11, 3))).isNull();
        assertThat(TypeWidening.refusal(new CharType(3), new VarCharType(3))).isNull();
        assertThat(TypeWidening.refusal(new IntType(false), new IntType(true))).isNull();
        assertThat(TypeWidening.refusal(new DecimalType(10, 2), new DecimalType(10, 3)))
                .startsWith("a decimal may only gain digits");
        assertThat(TypeWidening.refusal(new IntType(true), new IntType(false)))
                .startsWith("a nullable column cannot become NOT NULL");
    }

    @Test
    void narrowingAndIncompatibleTypesAreRefusedNamingColumnTypesAndReason() {
        assertThatThrownBy(() -> apply(new UpdateColumnType("n", new SmallIntType(false))))
                .hasMessage(
                        "Cannot change column n from INT NOT NULL to SMALLINT NOT NULL of table"
                                + " db.t: it narrows the type; only widenings are allowed (INT to"
                                + " BIGINT, FLOAT to DOUBLE, DECIMAL to more digits, CHAR/VARCHAR"
                                + " to longer VARCHAR, NOT NULL to nullable)");
        assertThatThrownBy(() -> apply(new UpdateColumnType("name", new IntType())))
                .hasMessageStartingWith(
                        "Cannot change column name from VARCHAR(10) to INT of table db.t: the"
                                + " types are incompatible");
        assertThatThrownBy(() -> apply(new UpdateColumnType("name", new VarCharType(5))))
                .hasMessage(
                        "Cannot change column name from VARCHAR(10) to VARCHAR(5) of table db.t:"
                                + " a string type may only get longer");
    }

    @Test
    void nullableToNotNullAndARenameOfAPartitionColumnAreRefused() {
        assertThatThrownBy(
                        () -> apply(new UpdateColumnType("balance", new DecimalType(false, 12, 2))))
                .hasMessage(
                        "Cannot change column balance from DECIMAL(10, 2) to DECIMAL(12, 2) NOT"
                                + " NULL of table db.t: a nullable column cannot become NOT NULL"
                                + " (files may hold nulls)");
        TableSchema partitioned =
                TableSchema.create(TYPE, List.of("dt"), List.of(), Map.of(), null);
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t",
                                        partitioned,
                                        List.of(new RenameColumn("dt", "day"))))
                .hasMessage(
                        "Cannot rename column dt of table db.t: it is a partition column; rows are"
                                + " bucketed, partitioned and merged by it in every file");
    }

    @Test
    void keyColumnsKeepTheirNamesAndTypes() {
        assertThatThrownBy(() -> apply(new DropColumn("id")))
                .hasMessage(
                        "Cannot drop column id of table db.t: it is a primary-key column; rows are"
                                + " bucketed, partitioned and merged by it in every file");
        assertThatThrownBy(() -> apply(new RenameColumn("dt", "day")))
                .hasMessageStartingWith(
                        "Cannot rename column dt of table db.t: it is a primary-key column");
        assertThatThrownBy(() -> apply(new UpdateColumnType("id", new BigIntType(true))))
                .hasMessageStartingWith(
                        "Cannot change column id from BIGINT NOT NULL to BIGINT of table db.t: it"
                                + " is a primary-key column");
        TableSchema partitioned =
                TableSchema.create(TYPE, List.of("dt"), List.of(), Map.of(), null);
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t", partitioned, List.of(new DropColumn("dt"))))
                .hasMessageStartingWith(
                        "Cannot drop column dt of table db.t: it is a partition column");
        TableSchema bucketed =
                TableSchema.create(TYPE, List.of(), List.of(), Map.of("bucket-key", "n"), null);
        assertThatThrownBy(
                        () ->
                                SchemaChange.apply(
                                        "db.t", bucketed, List.of(new RenameColumn("n", "m"))))
                .hasMessageStartingWith(
                        "Cannot rename column n of table db.t: it is a bucket-key column");
    }

    @Test
    void notNullAddsTheLastColumnAndUnknownColumnsAreRefused() {
        assertThatThrownBy(() -> apply(new AddColumn("x", new IntType(false), null, null)))
                .hasMessage(
                        "Cannot add column x INT NOT NULL of table db.t: rows written before have"
                                + " no value for it; give it a default (option"
                                + " 'fields.x.default-value') or add it as a nullable column");
        TableSchema single =
                TableSchema.create(
                        RowType.of(new LogicalType[] {new IntType()}, new String[] {"a"}),
                        List.of(),
                        List.of(),
                        Map.of(),
                        null);
        assertThatThrownBy(() -> SchemaChange.apply("db.t", single, List.of(new DropColumn("a"))))
                .hasMessage("Cannot drop column a of table db.t: it is the table's last column");
        assertThatThrownBy(() -> apply(new DropColumn("nope")))
                .hasMessage(
                        "Cannot alter table db.t: column nope does not exist; columns are [id,"
                                + " name, n, balance, dt]");
        assertThatThrownBy(() -> apply(new AddColumn("n", new IntType(), null, null)))
                .hasMessageEndingWith("a column of that name exists");
        assertThatThrownBy(
                        () -> apply(new AddColumn("x", new IntType(), null, Position.after("zz"))))
                .hasMessageEndingWith("there is no column zz to put it after");
    }

    @Test
    void theHighestFieldIdRoundTripsAndDefaultsToTheFieldsHighest() {
        TableSchema plain = TableSchema.create(TYPE, List.of(), List.of(), Map.of(), null);
        TableSchema dropped =
                SchemaChange.apply(
                        "db.t", plain, List.of(new DropColumn("dt"), new DropColumn("balance")));
        assertThat(dropped.highestFieldId()).isEqualTo(4);
        byte[] json = SchemaJson.toJson(dropped);
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"highestFieldId\" : 4");
        assertThat(SchemaJson.fromJson(json, "schema-1").highestFieldId()).isEqualTo(4);

        String legacy =
                new String(json, StandardCharsets.UTF_8).replace("\"highestFieldId\" : 4,", "");
        assertThat(legacy).doesNotContain("highestFieldId");
        assertThat(SchemaJson.fromJson(legacy.getBytes(StandardCharsets.UTF_8), "schema-1"))
                .extracting(TableSchema::highestFieldId)
                .isEqualTo(2);
    }
}
