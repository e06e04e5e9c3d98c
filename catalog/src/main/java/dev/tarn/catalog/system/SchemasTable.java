package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$schemas}: one row per schema version of the table, oldest first, its fields, keys and
 * options as JSON text ({@code [{"id":0,"name":"id","type":"BIGINT NOT NULL"}]}, types in Flink
 * SQL). A schema file records no time, so {@code update_time} is when the file was written.
 */
final class SchemasTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("schema_id", DataTypes.BIGINT().notNull()),
                    field("fields", DataTypes.STRING().notNull()),
                    field("partition_keys", DataTypes.STRING().notNull()),
                    field("primary_keys", DataTypes.STRING().notNull()),
                    field("options", DataTypes.STRING().notNull()),
                    field("comment", DataTypes.STRING()),
                    field("update_time", SystemTableValues.time().notNull()));

    private static final ObjectMapper JSON = new ObjectMapper();

    static List<RowData> rows(Table table) {
        List<RowData> rows = new ArrayList<>();
        for (TableMetadata.StoredSchema stored : table.metadata().schemas()) {
            rows.add(row(stored.schema(), stored.writtenMillis()));
        }
        return rows;
    }

    static RowData row(TableSchema schema, long writtenMillis) {
        ArrayNode fields = JSON.createArrayNode();
        for (DataField field : schema.fields()) {
            ObjectNode node = fields.addObject();
            node.put("id", field.id());
            node.put("name", field.name());
            node.put("type", field.type().asSerializableString());
            if (field.description() != null) {
                node.put("description", field.description());
            }
        }
        return GenericRowData.of(
                schema.id(),
                json(fields),
                json(schema.partitionKeys()),
                json(schema.primaryKeys()),
                json(new TreeMap<>(schema.options())),
                StringData.fromString(schema.comment()),
                SystemTableValues.timestamp(writtenMillis));
    }

    private static StringData json(Object value) {
        try {
            return StringData.fromString(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write " + value + " as JSON", e);
        }
    }

    private SchemasTable() {}
}
