package dev.tarn.format.iceberg;

import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.MappedFields;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A Tarn schema as an Iceberg schema (SPEC.md, "Iceberg metadata"): the same columns with the same
 * field ids, each of an Iceberg type; the identity partition spec of the partition columns; and the
 * name mapping by which Iceberg readers find a column in Tarn's data files, whose Parquet columns
 * carry names, not ids. Tarn's system columns of primary-key files are in no Iceberg schema, so
 * Iceberg readers skip them.
 */
public final class IcebergSchemas {

    /** Widest timestamp precision an Iceberg timestamp (microseconds) holds. */
    private static final int MAX_TIMESTAMP_PRECISION = 6;

    private IcebergSchemas() {}

    /**
     * Checks that every column of {@code schema} has an Iceberg type.
     *
     * @throws UnsupportedOperationException naming the columns, their types and the option
     */
    public static void check(TableSchema schema) {
        List<String> unsupported = new ArrayList<>();
        for (DataField field : schema.fields()) {
            if (type(field.type()) == null) {
                unsupported.add(field.name() + " " + field.type().asSummaryString());
            }
        }
        if (!unsupported.isEmpty()) {
            throw new UnsupportedOperationException(
                    String.format(
                            "option 'metadata.iceberg.storage' = 'table-location' needs an Iceberg"
                                    + " type for every column, and these have none: %s (nested"
                                    + " types, whose fields have no field ids, and timestamps"
                                    + " finer than microseconds)",
                            String.join(", ", unsupported)));
        }
    }

    /** The Iceberg schema of {@code schema}: the same field ids, names, order and nullability. */
    static Schema schema(TableSchema schema) {
        List<Types.NestedField> fields = new ArrayList<>();
        for (DataField field : schema.fields()) {
            Type type = type(field.type());
            if (type == null) {
                throw new UnsupportedOperationException(
                        "Column "
                                + field.name()
                                + " has type "
                                + field.type().asSummaryString()
                                + ", which has no Iceberg type");
            }
            // Every Parquet column Tarn writes is OPTIONAL: Iceberg sees every column nullable.
            fields.add(
                    Types.NestedField.optional(
                            field.id(), field.name(), type, field.description()));
        }
        return new Schema(fields);
    }

    /** The identity spec of the partition columns, in partition-key order. */
    static PartitionSpec spec(Schema iceberg, TableSchema schema) {
        PartitionSpec.Builder spec = PartitionSpec.builderFor(iceberg);
        schema.partitionKeys().forEach(spec::identity);
        return spec.build();
    }

    /**
     * The name mapping of {@code schemas}, oldest first: each field id with every name it had, so a
     * file written before a rename finds its column. A name a later field took belongs to that
     * field alone.
     */
    static String nameMapping(List<TableSchema> schemas) {
        Map<Integer, Set<String>> names = new LinkedHashMap<>();
        Map<String, Integer> owner = new LinkedHashMap<>();
        for (TableSchema schema : schemas) {
            for (DataField field : schema.fields()) {
                Integer before = owner.put(field.name(), field.id());
                if (before != null && before != field.id()) {
                    names.get(before).remove(field.name());
                }
                names.computeIfAbsent(field.id(), id -> new LinkedHashSet<>()).add(field.name());
            }
        }
        List<MappedField> fields = new ArrayList<>();
        names.forEach((id, aliases) -> fields.add(MappedField.of(id, aliases)));
        return NameMappingParser.toJson(NameMapping.of(MappedFields.of(fields)));
    }

    /** The Iceberg type of a Tarn column type, or null if it has none. */
    static Type type(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Types.BooleanType.get();
            case TINYINT, SMALLINT, INTEGER -> Types.IntegerType.get();
            case BIGINT -> Types.LongType.get();
            case FLOAT -> Types.FloatType.get();
            case DOUBLE -> Types.DoubleType.get();
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield Types.DecimalType.of(d.getPrecision(), d.getScale());
            }
            case CHAR, VARCHAR -> Types.StringType.get();
            case BINARY, VARBINARY -> Types.BinaryType.get();
            case DATE -> Types.DateType.get();
            case TIME_WITHOUT_TIME_ZONE -> Types.TimeType.get();
            case TIMESTAMP_WITHOUT_TIME_ZONE ->
                    ((TimestampType) type).getPrecision() <= MAX_TIMESTAMP_PRECISION
                            ? Types.TimestampType.withoutZone()
                            : null;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    ((LocalZonedTimestampType) type).getPrecision() <= MAX_TIMESTAMP_PRECISION
                            ? Types.TimestampType.withZone()
                            : null;
            default -> null;
        };
    }
}
