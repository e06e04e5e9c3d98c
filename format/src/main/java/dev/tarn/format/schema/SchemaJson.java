package dev.tarn.format.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tarn.format.schema.TableSchema.DataField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.UnresolvedUserDefinedType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * Reads and writes schema files (SPEC.md, "Schema files"). Types are stored as Flink SQL type
 * strings ({@code LogicalType#asSerializableString}), so every SQL type round-trips exactly.
 */
final class SchemaJson {

    /** The only version this code writes; readers reject newer ones. */
    static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public static byte[] toJson(TableSchema schema) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("id", schema.id());
        root.put("highestFieldId", schema.highestFieldId());
        ArrayNode fields = root.putArray("fields");
        for (DataField f : schema.fields()) {
            ObjectNode field = fields.addObject();
            field.put("id", f.id());
            field.put("name", f.name());
            field.put("type", typeString(f));
            if (f.description() != null) {
                field.put("description", f.description());
            }
        }
        schema.partitionKeys().forEach(root.putArray("partitionKeys")::add);
        schema.primaryKeys().forEach(root.putArray("primaryKeys")::add);
        ObjectNode options = root.putObject("options");
        schema.options().forEach(options::put);
        if (schema.comment() != null) {
            root.put("comment", schema.comment());
        }
        if (schema.watermark() != null) {
            ObjectNode watermark = root.putObject("watermark");
            watermark.put("rowtime", schema.watermark().rowtime());
            watermark.put("expression", schema.watermark().expression());
        }
        if (!schema.computedColumns().isEmpty()) {
            ArrayNode computed = root.putArray("computedColumns");
            for (TableSchema.ComputedColumn c : schema.computedColumns()) {
                ObjectNode column = computed.addObject();
                column.put("name", c.name());
                column.put("expression", c.expression());
                column.put("position", c.position());
                if (c.comment() != null) {
                    column.put("comment", c.comment());
                }
            }
        }
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize schema " + schema.id(), e);
        }
    }

    private static String typeString(DataField f) {
        try {
            return f.type().asSerializableString();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Unsupported type of column " + f.name() + ": " + f.type().asSummaryString(),
                    e);
        }
    }

    /**
     * @param source names the file in error messages
     * @throws IllegalArgumentException if the content is not a valid schema file
     */
    public static TableSchema fromJson(byte[] json, String source) {
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || !root.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            int version = required(root, "version").asInt();
            if (version > VERSION) {
                throw new IllegalArgumentException(
                        "format version " + version + " is newer than supported " + VERSION);
            }
            List<DataField> fields = new ArrayList<>();
            for (JsonNode field : required(root, "fields")) {
                String name = required(field, "name").asText();
                String typeString = required(field, "type").asText();
                LogicalType type =
                        LogicalTypeParser.parse(typeString, SchemaJson.class.getClassLoader());
                // The parser reads any unknown word as a user-defined type name: reject those.
                if (type instanceof UnresolvedUserDefinedType
                        || LogicalTypeChecks.hasNested(
                                type, t -> t instanceof UnresolvedUserDefinedType)) {
                    throw new IllegalArgumentException(
                            "unknown type '" + typeString + "' of column " + name);
                }
                JsonNode description = field.get("description");
                fields.add(
                        new DataField(
                                required(field, "id").asInt(),
                                name,
                                type,
                                description == null ? null : description.asText()));
            }
            Map<String, String> options = new LinkedHashMap<>();
            required(root, "options")
                    .fields()
                    .forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
            JsonNode comment = root.get("comment");
            JsonNode watermark = root.get("watermark");
            JsonNode highest = root.get("highestFieldId");
            return new TableSchema(
                    required(root, "id").asLong(),
                    fields,
                    strings(required(root, "partitionKeys")),
                    strings(required(root, "primaryKeys")),
                    options,
                    comment == null ? null : comment.asText(),
                    watermark == null || watermark.isNull()
                            ? null
                            : new TableSchema.WatermarkSpec(
                                    required(watermark, "rowtime").asText(),
                                    required(watermark, "expression").asText()),
                    computed(root.get("computedColumns")),
                    highest == null || highest.isNull()
                            ? fields.stream().mapToInt(DataField::id).max().orElse(-1)
                            : highest.asInt());
        } catch (java.io.IOException | ValidationException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Corrupt schema file " + source + ": " + e.getMessage(), e);
        }
    }

    private static List<TableSchema.ComputedColumn> computed(@Nullable JsonNode array) {
        List<TableSchema.ComputedColumn> columns = new ArrayList<>();
        if (array != null && !array.isNull()) {
            for (JsonNode c : array) {
                JsonNode comment = c.get("comment");
                columns.add(
                        new TableSchema.ComputedColumn(
                                required(c, "name").asText(),
                                required(c, "expression").asText(),
                                required(c, "position").asInt(),
                                comment == null || comment.isNull() ? null : comment.asText()));
            }
        }
        return columns;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    /** The field {@code name} of {@code node}; absent and JSON null alike are missing. */
    private static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    private SchemaJson() {}
}
