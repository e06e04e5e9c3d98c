package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.TableSchema.WatermarkSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The schema file's declarations for the engine, the watermark and computed columns: written, read
 * back, optional, and checked.
 */
class SchemaJsonTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new IntType(), new TimestampType(3)},
                    new String[] {"id", "ts"});

    @Test
    void aWatermarkRoundTrips() {
        WatermarkSpec spec = new WatermarkSpec("ts", "`ts` - INTERVAL '5' SECOND");
        TableSchema schema = TableSchema.create(TYPE, List.of(), List.of(), Map.of(), null, spec);

        byte[] json = SchemaJson.toJson(schema);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .contains("\"watermark\" : {")
                .contains("\"rowtime\" : \"ts\"")
                .contains("\"expression\" : \"`ts` - INTERVAL '5' SECOND\"");
        TableSchema read = SchemaJson.fromJson(json, "schema-0");
        assertThat(read).isEqualTo(schema);
        assertThat(read.watermark()).isEqualTo(spec);
        assertThat(read.withOptions(Map.of("bucket", "2")).watermark()).isEqualTo(spec);
    }

    @Test
    void computedColumnsRoundTripAndMayCarryTheWatermark() {
        List<TableSchema.ComputedColumn> computed =
                List.of(
                        new TableSchema.ComputedColumn("next_id", "`id` + 1", 1, "the next one"),
                        new TableSchema.ComputedColumn(
                                "event_time", "CAST(`ts` AS TIMESTAMP(3))", 3, null));
        TableSchema schema =
                TableSchema.create(
                        TYPE,
                        List.of(),
                        List.of(),
                        Map.of(),
                        null,
                        new WatermarkSpec("event_time", "`event_time`"),
                        computed);

        byte[] json = SchemaJson.toJson(schema);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .contains("\"computedColumns\" : [")
                .contains("\"expression\" : \"`id` + 1\"");
        TableSchema read = SchemaJson.fromJson(json, "schema-0");
        assertThat(read).isEqualTo(schema);
        assertThat(read.withOptions(Map.of("bucket", "2")).computedColumns()).isEqualTo(computed);
        TableSchema plain = TableSchema.create(TYPE, List.of(), List.of(), Map.of(), null);
        assertThat(new String(SchemaJson.toJson(plain), StandardCharsets.UTF_8))
                .doesNotContain("computedColumns");
        assertThatThrownBy(
                        () ->
                                TableSchema.create(
                                        TYPE,
                                        List.of(),
                                        List.of(),
                                        Map.of(),
                                        null,
                                        null,
                                        List.of(
                                                new TableSchema.ComputedColumn(
                                                        "id", "1", 2, null))))
                .hasMessage("Column id appears twice");
        assertThatThrownBy(
                        () ->
                                TableSchema.create(
                                        TYPE,
                                        List.of(),
                                        List.of(),
                                        Map.of(),
                                        null,
                                        null,
                                        List.of(
                                                new TableSchema.ComputedColumn("a", "1", 2, null),
                                                new TableSchema.ComputedColumn("b", "2", 2, null))))
                .hasMessage("Computed column b shares position 2");
    }

    @Test
    void aSchemaWithoutWatermarkWritesNone() {
        TableSchema schema = TableSchema.create(TYPE, List.of(), List.of(), Map.of(), null);

        byte[] json = SchemaJson.toJson(schema);
        assertThat(new String(json, StandardCharsets.UTF_8)).doesNotContain("watermark");
        assertThat(SchemaJson.fromJson(json, "schema-0").watermark()).isNull();
    }

    @Test
    void aWatermarkMustNameAColumnAndHaveAnExpression() {
        assertThatThrownBy(
                        () ->
                                TableSchema.create(
                                        TYPE,
                                        List.of(),
                                        List.of(),
                                        Map.of(),
                                        null,
                                        new WatermarkSpec("at", "`at`")))
                .hasMessage("Watermark column at is not a column; columns are [id, ts]");
        String noExpression =
                "{\"version\": 1, \"id\": 0, \"fields\": [{\"id\": 0, \"name\": \"ts\", \"type\":"
                        + " \"TIMESTAMP(3)\"}], \"partitionKeys\": [], \"primaryKeys\": [],"
                        + " \"options\": {}, \"watermark\": {\"rowtime\": \"ts\"}}";
        assertThatThrownBy(
                        () ->
                                SchemaJson.fromJson(
                                        noExpression.getBytes(StandardCharsets.UTF_8), "schema-0"))
                .hasMessage("Corrupt schema file schema-0: missing field 'expression'");
    }
}
