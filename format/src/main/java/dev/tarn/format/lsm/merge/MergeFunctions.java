package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.MergeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds the {@link MergeFunction} of a primary-key table from its {@link MergeEngine} and options
 * ({@link LsmOptions}), validating them up front so that a bad option fails when the table is
 * opened, with a message naming the option and its value, rather than on the first merge.
 */
public final class MergeFunctions {

    private MergeFunctions() {}

    /**
     * @param engine the table's {@code merge-engine}
     * @param rowType the table's full row type
     * @param primaryKey indexes of the primary-key fields in {@code rowType}
     * @param options the table options; unrelated keys are ignored
     * @throws IllegalArgumentException naming the option and value for any invalid option
     */
    public static MergeFunction create(
            MergeEngine engine, RowType rowType, int[] primaryKey, Map<String, String> options) {
        KeyComparator keys = new KeyComparator(rowType, primaryKey);
        checkFieldOptions(engine, rowType, options);
        MergeFunction function =
                switch (engine) {
                    case DEDUPLICATE -> new DeduplicateMergeFunction();
                    case PARTIAL_UPDATE -> new PartialUpdateMergeFunction(keys);
                    case AGGREGATION -> aggregation(rowType, primaryKey, options);
                    case FIRST_ROW -> new FirstRowMergeFunction();
                };
        String sequenceField = options.get(LsmOptions.SEQUENCE_FIELD.key());
        if (sequenceField != null) {
            function =
                    new SequenceFieldMergeFunction(
                            function, rowType, columns(rowType, sequenceField));
        }
        if (bool(options, LsmOptions.IGNORE_DELETE.key(), false)) {
            function = new IgnoreDeleteMergeFunction(function);
        }
        return function;
    }

    private static MergeFunction aggregation(
            RowType rowType, int[] primaryKey, Map<String, String> options) {
        String defaultFunction =
                options.getOrDefault(
                        LsmOptions.DEFAULT_AGGREGATE_FUNCTION.key(),
                        LsmOptions.DEFAULT_AGGREGATE_FUNCTION.defaultValue());
        FieldAggregator[] aggregators = new FieldAggregator[rowType.getFieldCount()];
        boolean[] ignoreRetract = new boolean[rowType.getFieldCount()];
        for (int i = 0; i < aggregators.length; i++) {
            String prefix = LsmOptions.FIELDS_PREFIX + rowType.getFieldNames().get(i);
            String function = options.get(prefix + LsmOptions.AGGREGATE_FUNCTION_SUFFIX);
            if (contains(primaryKey, i)) {
                if (function != null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option '%s%s' = '%s' is not allowed: the field is part of"
                                            + " the primary key, which is never aggregated",
                                    prefix, LsmOptions.AGGREGATE_FUNCTION_SUFFIX, function));
                }
                continue;
            }
            String delimiter =
                    options.getOrDefault(prefix + LsmOptions.LIST_AGG_DELIMITER_SUFFIX, ",");
            aggregators[i] =
                    FieldAggregator.create(
                            function == null ? defaultFunction : function, rowType, i, delimiter);
            ignoreRetract[i] = bool(options, prefix + LsmOptions.IGNORE_RETRACT_SUFFIX, false);
        }
        return new AggregateMergeFunction(aggregators, ignoreRetract);
    }

    /** Per-field options must name a column, and aggregation options need that engine. */
    private static void checkFieldOptions(
            MergeEngine engine, RowType rowType, Map<String, String> options) {
        for (String key : options.keySet()) {
            if (key.equals(LsmOptions.DEFAULT_AGGREGATE_FUNCTION.key())) {
                requireAggregation(engine, key);
                continue;
            }
            if (!key.startsWith(LsmOptions.FIELDS_PREFIX)) {
                continue;
            }
            for (String suffix :
                    List.of(
                            LsmOptions.AGGREGATE_FUNCTION_SUFFIX,
                            LsmOptions.IGNORE_RETRACT_SUFFIX,
                            LsmOptions.LIST_AGG_DELIMITER_SUFFIX)) {
                if (key.endsWith(suffix)) {
                    String field =
                            key.substring(
                                    LsmOptions.FIELDS_PREFIX.length(),
                                    key.length() - suffix.length());
                    if (!rowType.getFieldNames().contains(field)) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Option '%s' names no column of the table; columns are %s",
                                        key, rowType.getFieldNames()));
                    }
                    requireAggregation(engine, key);
                }
            }
        }
    }

    private static void requireAggregation(MergeEngine engine, String key) {
        if (engine != MergeEngine.AGGREGATION) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' only applies to merge-engine 'aggregation', not '%s'",
                            key, engine.key()));
        }
    }

    private static int[] columns(RowType rowType, String value) {
        List<Integer> indexes = new ArrayList<>();
        for (String name : value.split(",")) {
            int index = rowType.getFieldIndex(name.trim());
            if (index < 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option 'sequence.field' = '%s' names no column '%s'; columns are"
                                        + " %s",
                                value, name.trim(), rowType.getFieldNames()));
            }
            indexes.add(index);
        }
        return indexes.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean bool(Map<String, String> options, String key, boolean defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(
                        "Option '" + key + "' must be 'true' or 'false', got '" + value + "'");
        }
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
