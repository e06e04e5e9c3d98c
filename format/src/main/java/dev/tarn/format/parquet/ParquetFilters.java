package dev.tarn.format.parquet;

import dev.tarn.format.parquet.schema.DecimalEncoding;
import dev.tarn.format.parquet.schema.ParquetSchemas;
import dev.tarn.format.parquet.schema.TimestampEncoding;
import dev.tarn.format.predicate.Predicate;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Converts a {@link Predicate} to a Parquet {@link FilterPredicate} for skipping row groups by
 * their statistics. The result never drops a row group holding a matching row: what cannot be
 * converted means "keep", so an AND loses the child and an OR is lost whole. A leaf converts only
 * if its column is a top-level primitive of the file whose Parquet type is exactly the one its
 * Flink type is written as (the same unit, scale and annotation).
 */
final class ParquetFilters {

    private ParquetFilters() {}

    /** The filter, or null if nothing of {@code predicate} can skip row groups. */
    @Nullable
    static FilterPredicate convert(Predicate predicate, MessageType fileSchema) {
        if (predicate instanceof Predicate.Leaf leaf) {
            return leaf(leaf, fileSchema);
        }
        if (predicate instanceof Predicate.And and) {
            FilterPredicate result = null;
            for (Predicate child : and.children()) {
                FilterPredicate converted = convert(child, fileSchema);
                if (converted != null) {
                    result = result == null ? converted : FilterApi.and(result, converted);
                }
            }
            return result;
        }
        Predicate.Or or = (Predicate.Or) predicate;
        FilterPredicate result = null;
        for (Predicate child : or.children()) {
            FilterPredicate converted = convert(child, fileSchema);
            if (converted == null) {
                return null;
            }
            result = result == null ? converted : FilterApi.or(result, converted);
        }
        return result;
    }

    @Nullable
    private static FilterPredicate leaf(Predicate.Leaf leaf, MessageType fileSchema) {
        String name = leaf.fieldName();
        if (name.contains(".") || !fileSchema.containsField(name)) {
            return null; // Parquet's filter API addresses columns by dotted path
        }
        Type fileType = fileSchema.getType(name);
        Type expected;
        try {
            expected = ParquetSchemas.toParquetType(name, leaf.type(), fileType.getRepetition());
        } catch (UnsupportedOperationException e) {
            return null;
        }
        if (!fileType.isPrimitive() || !fileType.equals(expected)) {
            return null;
        }
        try {
            return convertLeaf(leaf, name);
        } catch (ClassCastException | ArithmeticException e) {
            return null; // a literal of another type than the column's: cannot prune with it
        }
    }

    @Nullable
    private static FilterPredicate convertLeaf(Predicate.Leaf leaf, String name) {
        LogicalType type = leaf.type();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return eqOnly(leaf, FilterApi.booleanColumn(name), v -> (Boolean) v);
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ordered(leaf, FilterApi.intColumn(name), v -> Math.toIntExact(integral(v)));
            case BIGINT:
                return ordered(leaf, FilterApi.longColumn(name), ParquetFilters::integral);
            case FLOAT:
                return ordered(leaf, FilterApi.floatColumn(name), v -> notNaN((Float) v));
            case DOUBLE:
                return ordered(leaf, FilterApi.doubleColumn(name), v -> notNaN((Double) v));
            case CHAR:
            case VARCHAR:
                return ordered(
                        leaf,
                        FilterApi.binaryColumn(name),
                        v -> Binary.fromConstantByteArray(((StringData) v).toBytes()));
            case DECIMAL:
                return decimal(leaf, (DecimalType) type, name);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampEncoding encoding =
                        TimestampEncoding.of(LogicalTypeChecks.getPrecision(type));
                if (encoding == TimestampEncoding.INT96) {
                    return null;
                }
                return ordered(leaf, FilterApi.longColumn(name), v -> exactTimestamp(encoding, v));
            default:
                return null;
        }
    }

    @Nullable
    private static FilterPredicate decimal(Predicate.Leaf leaf, DecimalType type, String name) {
        Function<Object, Long> unscaled =
                v -> {
                    DecimalData d = (DecimalData) v;
                    return d.scale() == type.getScale() ? d.toUnscaledLong() : null;
                };
        return switch (DecimalEncoding.of(type.getPrecision())) {
            case INT32 ->
                    ordered(
                            leaf,
                            FilterApi.intColumn(name),
                            v -> {
                                Long l = unscaled.apply(v);
                                return l == null ? null : l.intValue();
                            });
            case INT64 -> ordered(leaf, FilterApi.longColumn(name), unscaled);
            case FIXED -> null;
        };
    }

    /** An integral literal of any width; others are not comparable to an integer column. */
    private static long integral(Object literal) {
        if (literal instanceof Byte
                || literal instanceof Short
                || literal instanceof Integer
                || literal instanceof Long) {
            return ((Number) literal).longValue();
        }
        throw new ClassCastException("Not an integral literal: " + literal);
    }

    /** The stored value of a timestamp literal, or null if the column's unit cannot hold it. */
    @Nullable
    private static Long exactTimestamp(TimestampEncoding encoding, Object literal) {
        TimestampData ts = (TimestampData) literal;
        int unitNanos = encoding == TimestampEncoding.MILLIS ? 1_000_000 : 1000;
        if (ts.getNanoOfMillisecond() % unitNanos != 0) {
            return null; // truncating would make LT and NOT_EQ skip row groups that match
        }
        return encoding.toLong(ts);
    }

    @Nullable
    private static <T> T notNaN(T value) {
        return value instanceof Float f && f.isNaN() || value instanceof Double d && d.isNaN()
                ? null
                : value;
    }

    /** A filter on a column supporting every operator; {@code literal} returns null to give up. */
    @Nullable
    private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
            FilterPredicate ordered(Predicate.Leaf leaf, C column, Function<Object, T> literal) {
        switch (leaf.op()) {
            case LT:
            case LT_EQ:
            case GT:
            case GT_EQ:
                T value = literal.apply(leaf.literals().get(0));
                if (value == null) {
                    return null;
                }
                return switch (leaf.op()) {
                    case LT -> FilterApi.lt(column, value);
                    case LT_EQ -> FilterApi.ltEq(column, value);
                    case GT -> FilterApi.gt(column, value);
                    default -> FilterApi.gtEq(column, value);
                };
            default:
                return eqOnly(leaf, column, literal);
        }
    }

    /** A filter with equality operators only; order operators give up. */
    @Nullable
    private static <
                    T extends Comparable<T>,
                    C extends Operators.Column<T> & Operators.SupportsEqNotEq>
            FilterPredicate eqOnly(Predicate.Leaf leaf, C column, Function<Object, T> literal) {
        switch (leaf.op()) {
            case IS_NULL:
                return FilterApi.eq(column, null);
            case IS_NOT_NULL:
                return FilterApi.notEq(column, null);
            case EQ:
            case NOT_EQ:
                T value = literal.apply(leaf.literals().get(0));
                if (value == null) {
                    return null;
                }
                return leaf.op() == Predicate.Op.EQ
                        ? FilterApi.eq(column, value)
                        : FilterApi.notEq(column, value);
            case IN:
                Set<T> values = new HashSet<>();
                for (Object l : leaf.literals()) {
                    T value2 = literal.apply(l);
                    if (value2 == null) {
                        return null;
                    }
                    values.add(value2);
                }
                return values.isEmpty() ? null : FilterApi.in(column, values);
            default:
                return null;
        }
    }
}
