package dev.tarn.format.lsm;

import dev.tarn.format.lsm.BinaryRowEncoder.ArrayLayout;
import dev.tarn.format.lsm.BinaryRowEncoder.ElementWriter;
import dev.tarn.format.lsm.BinaryRowEncoder.FieldWriter;
import dev.tarn.format.lsm.BinaryRowEncoder.RowLayout;
import dev.tarn.format.row.StringBytes;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DistinctType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.variant.BinaryVariant;

/**
 * Chooses, once per type, the writer that puts a field of a row or an element of an array into a
 * {@link BinaryRowEncoder}'s buffer: a fixed-width put for flat types, a variable-part write for
 * the rest, recursing into the layouts of nested rows, arrays, maps and multisets.
 */
final class FieldWriters {

    private FieldWriters() {}

    static RowLayout rowLayout(BinaryRowEncoder out, List<LogicalType> fieldTypes) {
        FieldWriter[] writers = new FieldWriter[fieldTypes.size()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = fieldWriter(out, fieldTypes.get(i));
        }
        return new RowLayout(writers.length, writers);
    }

    static ArrayLayout arrayLayout(BinaryRowEncoder out, LogicalType elementType) {
        LogicalType type = unwrap(elementType);
        return new ArrayLayout(
                BinaryArrayData.calculateFixLengthPartSize(type), elementWriter(out, type));
    }

    private static FieldWriter fieldWriter(BinaryRowEncoder out, LogicalType declared) {
        LogicalType type = unwrap(declared);
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (r, p, slot, base) -> out.segment().putBoolean(slot, r.getBoolean(p));
            case TINYINT:
                return (r, p, slot, base) -> out.segment().put(slot, r.getByte(p));
            case SMALLINT:
                return (r, p, slot, base) -> out.segment().putShort(slot, r.getShort(p));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return (r, p, slot, base) -> out.segment().putInt(slot, r.getInt(p));
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (r, p, slot, base) -> out.segment().putLong(slot, r.getLong(p));
            case FLOAT:
                return (r, p, slot, base) -> out.segment().putFloat(slot, r.getFloat(p));
            case DOUBLE:
                return (r, p, slot, base) -> out.segment().putDouble(slot, r.getDouble(p));
            case CHAR:
            case VARCHAR:
                return (r, p, slot, base) -> {
                    if (r instanceof StringBytes direct) {
                        out.writeString(direct, p, slot, base);
                    } else {
                        out.writeString(r.getString(p), slot, base);
                    }
                };
            case BINARY:
            case VARBINARY:
                return (r, p, slot, base) -> out.writeBinary(r.getBinary(p), slot, base);
            case DECIMAL:
                {
                    int precision = LogicalTypeChecks.getPrecision(type);
                    int scale = LogicalTypeChecks.getScale(type);
                    return (r, p, slot, base) ->
                            out.writeDecimal(
                                    r.getDecimal(p, precision, scale), precision, slot, base);
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int precision = LogicalTypeChecks.getPrecision(type);
                    return (r, p, slot, base) ->
                            out.writeTimestamp(r.getTimestamp(p, precision), precision, slot, base);
                }
            case ROW:
            case STRUCTURED_TYPE:
                {
                    RowLayout nested = rowLayout(out, type.getChildren());
                    int arity = nested.arity();
                    return (r, p, slot, base) ->
                            out.writeRow(r.getRow(p, arity), nested, slot, base);
                }
            case ARRAY:
                {
                    ArrayLayout elements = arrayLayout(out, ((ArrayType) type).getElementType());
                    return (r, p, slot, base) ->
                            out.writeArray(r.getArray(p), elements, slot, base);
                }
            case MAP:
            case MULTISET:
                {
                    ArrayLayout keys = arrayLayout(out, mapKeyType(type));
                    ArrayLayout values = arrayLayout(out, mapValueType(type));
                    return (r, p, slot, base) ->
                            out.writeMap(r.getMap(p), keys, values, slot, base);
                }
            case RAW:
                {
                    TypeSerializer<?> serializer = ((RawType<?>) type).getTypeSerializer();
                    return (r, p, slot, base) ->
                            out.writeVariablePart(
                                    rawBytes(r.getRawValue(p), serializer), slot, base);
                }
            case VARIANT:
                return (r, p, slot, base) -> {
                    BinaryVariant variant = (BinaryVariant) r.getVariant(p);
                    out.writeVariant(variant.getMetadata(), variant.getValue(), slot, base);
                };
            case BITMAP:
                return (r, p, slot, base) ->
                        out.writeVariablePart(r.getBitmap(p).toBytes(), slot, base);
            case NULL:
                return (r, p, slot, base) -> {};
            default:
                throw unsupported(declared);
        }
    }

    private static ElementWriter elementWriter(BinaryRowEncoder out, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (a, p, slot, base) -> out.segment().putBoolean(slot, a.getBoolean(p));
            case TINYINT:
                return (a, p, slot, base) -> out.segment().put(slot, a.getByte(p));
            case SMALLINT:
                return (a, p, slot, base) -> out.segment().putShort(slot, a.getShort(p));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return (a, p, slot, base) -> out.segment().putInt(slot, a.getInt(p));
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (a, p, slot, base) -> out.segment().putLong(slot, a.getLong(p));
            case FLOAT:
                return (a, p, slot, base) -> out.segment().putFloat(slot, a.getFloat(p));
            case DOUBLE:
                return (a, p, slot, base) -> out.segment().putDouble(slot, a.getDouble(p));
            case CHAR:
            case VARCHAR:
                return (a, p, slot, base) -> out.writeString(a.getString(p), slot, base);
            case BINARY:
            case VARBINARY:
                return (a, p, slot, base) -> out.writeBinary(a.getBinary(p), slot, base);
            case DECIMAL:
                {
                    int precision = LogicalTypeChecks.getPrecision(type);
                    int scale = LogicalTypeChecks.getScale(type);
                    return (a, p, slot, base) ->
                            out.writeDecimal(
                                    a.getDecimal(p, precision, scale), precision, slot, base);
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int precision = LogicalTypeChecks.getPrecision(type);
                    return (a, p, slot, base) ->
                            out.writeTimestamp(a.getTimestamp(p, precision), precision, slot, base);
                }
            case ROW:
            case STRUCTURED_TYPE:
                {
                    RowLayout nested = rowLayout(out, type.getChildren());
                    int arity = nested.arity();
                    return (a, p, slot, base) ->
                            out.writeRow(a.getRow(p, arity), nested, slot, base);
                }
            case ARRAY:
                {
                    ArrayLayout elements = arrayLayout(out, ((ArrayType) type).getElementType());
                    return (a, p, slot, base) ->
                            out.writeArray(a.getArray(p), elements, slot, base);
                }
            case MAP:
            case MULTISET:
                {
                    ArrayLayout keys = arrayLayout(out, mapKeyType(type));
                    ArrayLayout values = arrayLayout(out, mapValueType(type));
                    return (a, p, slot, base) ->
                            out.writeMap(a.getMap(p), keys, values, slot, base);
                }
            case RAW:
                {
                    TypeSerializer<?> serializer = ((RawType<?>) type).getTypeSerializer();
                    return (a, p, slot, base) ->
                            out.writeVariablePart(
                                    rawBytes(a.getRawValue(p), serializer), slot, base);
                }
            case VARIANT:
                return (a, p, slot, base) -> {
                    BinaryVariant variant = (BinaryVariant) a.getVariant(p);
                    out.writeVariant(variant.getMetadata(), variant.getValue(), slot, base);
                };
            case NULL:
                return (a, p, slot, base) -> {};
            default:
                throw unsupported(type);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static byte[] rawBytes(
            org.apache.flink.table.data.RawValueData value, TypeSerializer serializer) {
        return value.toBytes(serializer);
    }

    private static LogicalType unwrap(LogicalType type) {
        return type instanceof DistinctType distinct ? unwrap(distinct.getSourceType()) : type;
    }

    private static LogicalType mapKeyType(LogicalType type) {
        return type instanceof MapType map
                ? map.getKeyType()
                : ((MultisetType) type).getElementType();
    }

    private static LogicalType mapValueType(LogicalType type) {
        return type instanceof MapType map ? map.getValueType() : new IntType(false);
    }

    private static IllegalArgumentException unsupported(LogicalType type) {
        return new IllegalArgumentException(
                "Cannot store values of type "
                        + type
                        + " in a sort buffer: the type has no"
                        + " binary row layout");
    }
}
