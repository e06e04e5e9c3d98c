package dev.tarn.format.lsm.merge;

import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Folds the values of one field over the versions of a key, for the {@code aggregation} merge
 * engine: {@link #reset()}, then {@link #add}/{@link #retract} per version in sequence order, then
 * {@link #source()}. Like {@link MergeFunction}, it may keep references to the rows it was given
 * until the next reset.
 */
interface FieldAggregator {

    /** The names of {@code fields.<f>.aggregate-function}, in the order errors list them. */
    List<String> NAMES =
            List.of(
                    "sum",
                    "min",
                    "max",
                    "last_value",
                    "last_non_null_value",
                    "first_value",
                    "first_non_null_value",
                    "listagg",
                    "bool_and",
                    "bool_or");

    void reset();

    /** Folds in field {@code pos} of {@code row}, which may be null. */
    void add(RowData row, int pos);

    /**
     * Takes back field {@code pos} of a retracted row.
     *
     * @throws IllegalArgumentException if the function cannot retract
     */
    void retract(RowData row, int pos);

    /**
     * A row whose field at the aggregated position (any position, for computed values) holds the
     * aggregate; null for a null aggregate.
     */
    @Nullable
    RowData source();

    /**
     * Creates the aggregator {@code function} for field {@code pos} of {@code rowType}.
     *
     * @throws IllegalArgumentException naming the option and value if the function is unknown or
     *     does not support the field's type
     */
    static FieldAggregator create(String function, RowType rowType, int pos, String delimiter) {
        String field = rowType.getFieldNames().get(pos);
        LogicalType type = rowType.getTypeAt(pos);
        switch (function) {
            case "sum":
                return SumAggregator.create(field, type);
            case "min":
            case "max":
            case "last_value":
            case "last_non_null_value":
            case "first_value":
            case "first_non_null_value":
                return SelectAggregator.create(function, rowType, pos);
            case "listagg":
                return ListAggAggregator.create(field, type, delimiter);
            case "bool_and":
            case "bool_or":
                return BoolAggregator.create(function, field, type);
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Unknown aggregate function '%s' in option"
                                        + " 'fields.%s.aggregate-function'; supported are %s",
                                function, field, NAMES));
        }
    }

    /** The error for a function that does not support a field's type. */
    static IllegalArgumentException unsupportedType(
            String function, String field, LogicalType type, String supported) {
        return new IllegalArgumentException(
                String.format(
                        "Aggregate function '%s' (option 'fields.%s.aggregate-function') cannot"
                                + " aggregate field '%s' of type %s; it supports %s",
                        function, field, field, type, supported));
    }

    /** The error for a retraction that a function cannot take back. */
    static IllegalArgumentException cannotRetract(String function, String field) {
        return new IllegalArgumentException(
                String.format(
                        "Aggregate function '%s' of field '%s' cannot retract a value; set"
                                + " 'fields.%s.ignore-retract' = 'true' to ignore retractions of"
                                + " this field",
                        function, field, field));
    }
}
