package dev.tarn.format.parquet.schema;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema of a Flink row type; the one place that decides physical types. Every field,
 * element and value is OPTIONAL whatever its Flink nullability, so a file never depends on a NOT
 * NULL constraint being honoured upstream; only map keys of a NOT NULL key type are REQUIRED, as
 * the Parquet spec asks of keys. Arrays use the 3-level LIST layout ({@code list.element}), maps
 * and multisets the MAP layout ({@code key_value.key/value}; a multiset is a map from element to
 * INT count). Timestamps follow {@link TimestampEncoding}, decimals {@link DecimalEncoding}, and
 * TIME is INT32 TIME(MILLIS) at every precision because Flink holds it as milliseconds of day.
 */
public final class ParquetSchemas {

    /** Name of the root group; readers match columns by name, so it is informational. */
    static final String ROOT_NAME = "tarn_schema";

    public static final String LIST_GROUP = "list";
    public static final String LIST_ELEMENT = "element";
    public static final String MAP_GROUP = "key_value";
    public static final String MAP_KEY = "key";
    public static final String MAP_VALUE = "value";

    private ParquetSchemas() {}

    public static MessageType toMessageType(RowType rowType) {
        return new MessageType(ROOT_NAME, fields(rowType));
    }

    /**
     * As {@link #toMessageType(RowType)}, the first {@code fieldIds.length} top-level columns with
     * those field ids (the table's columns; system columns that follow them have none).
     */
    public static MessageType toMessageType(RowType rowType, int[] fieldIds) {
        List<Type> fields = fields(rowType);
        for (int i = 0; i < fieldIds.length && i < fields.size(); i++) {
            fields.set(i, fields.get(i).withId(fieldIds[i]));
        }
        return new MessageType(ROOT_NAME, fields);
    }

    static List<Type> fields(RowType rowType) {
        List<Type> fields = new ArrayList<>(rowType.getFieldCount());
        for (RowType.RowField field : rowType.getFields()) {
            fields.add(toParquetType(field.getName(), field.getType(), Repetition.OPTIONAL));
        }
        return fields;
    }

    public static Type toParquetType(String name, LogicalType type, Repetition repetition) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return Types.buildGroup(repetition)
                        .as(LogicalTypeAnnotation.listType())
                        .addField(
                                Types.repeatedGroup()
                                        .addField(
                                                toParquetType(
                                                        LIST_ELEMENT,
                                                        ((ArrayType) type).getElementType(),
                                                        Repetition.OPTIONAL))
                                        .named(LIST_GROUP))
                        .named(name);
            case MAP:
                MapType map = (MapType) type;
                return mapType(name, repetition, map.getKeyType(), map.getValueType());
            case MULTISET:
                return mapType(
                        name, repetition, ((MultisetType) type).getElementType(), multisetCount());
            case ROW:
                return Types.buildGroup(repetition)
                        .addFields(fields((RowType) type).toArray(new Type[0]))
                        .named(name);
            default:
                return primitive(name, type, repetition);
        }
    }

    /** The value type of a multiset's map: the count of each element. */
    public static LogicalType multisetCount() {
        return new IntType(false);
    }

    private static Type mapType(
            String name, Repetition repetition, LogicalType key, LogicalType value) {
        Repetition keyRepetition = key.isNullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        return Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.mapType())
                .addField(
                        Types.repeatedGroup()
                                .addField(toParquetType(MAP_KEY, key, keyRepetition))
                                .addField(toParquetType(MAP_VALUE, value, Repetition.OPTIONAL))
                                .named(MAP_GROUP))
                .named(name);
    }

    private static Type primitive(String name, LogicalType type, Repetition repetition) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
            case TINYINT:
                return int32(repetition, LogicalTypeAnnotation.intType(8, true)).named(name);
            case SMALLINT:
                return int32(repetition, LogicalTypeAnnotation.intType(16, true)).named(name);
            case INTEGER:
                return int32(repetition, null).named(name);
            case BIGINT:
                return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            case FLOAT:
                return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
            case DOUBLE:
                return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
            case DATE:
                return int32(repetition, LogicalTypeAnnotation.dateType()).named(name);
            case TIME_WITHOUT_TIME_ZONE:
                return int32(repetition, LogicalTypeAnnotation.timeType(false, TimeUnit.MILLIS))
                        .named(name);
            case CHAR:
            case VARCHAR:
                return Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(name);
            case BINARY:
            case VARBINARY:
                return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
            case DECIMAL:
                return decimal(name, (DecimalType) type, repetition);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(name, LogicalTypeChecks.getPrecision(type), false, repetition);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(name, LogicalTypeChecks.getPrecision(type), true, repetition);
            default:
                throw new UnsupportedOperationException(
                        "Parquet data files cannot hold column "
                                + name
                                + " of type "
                                + type.asSummaryString()
                                + ": the type is not supported");
        }
    }

    private static Types.PrimitiveBuilder<PrimitiveType> int32(
            Repetition repetition, LogicalTypeAnnotation annotation) {
        return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation);
    }

    private static Type decimal(String name, DecimalType type, Repetition repetition) {
        LogicalTypeAnnotation annotation =
                LogicalTypeAnnotation.decimalType(type.getScale(), type.getPrecision());
        return switch (DecimalEncoding.of(type.getPrecision())) {
            case INT32 ->
                    Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
            case INT64 ->
                    Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
            case FIXED ->
                    Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                            .length(DecimalEncoding.fixedLength(type.getPrecision()))
                            .as(annotation)
                            .named(name);
        };
    }

    private static Type timestamp(
            String name, int precision, boolean utcAdjusted, Repetition repetition) {
        return switch (TimestampEncoding.of(precision)) {
            case MILLIS ->
                    Types.primitive(PrimitiveTypeName.INT64, repetition)
                            .as(LogicalTypeAnnotation.timestampType(utcAdjusted, TimeUnit.MILLIS))
                            .named(name);
            case MICROS ->
                    Types.primitive(PrimitiveTypeName.INT64, repetition)
                            .as(LogicalTypeAnnotation.timestampType(utcAdjusted, TimeUnit.MICROS))
                            .named(name);
            case INT96 -> Types.primitive(PrimitiveTypeName.INT96, repetition).named(name);
        };
    }
}
