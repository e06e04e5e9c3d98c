package dev.tarn.format.schema;

import dev.tarn.format.schema.TableOptions.OptionScope;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * Enforces each option's {@link OptionScope} where a value other than the table's is given: per
 * query (hints, and the options of a {@code 'connector' = 'tarn'} DDL) and by {@code ALTER TABLE}.
 * Values compare as the table reads them: {@code '4'} and {@code ' 4'} are one bucket count, and an
 * option left out has its default, so giving a table's own value is never a change.
 */
final class OptionChanges {

    /**
     * Checks options given for one query against {@code schema}, the table's.
     *
     * @throws IllegalArgumentException naming the first option (by key) that only the table may set
     *     and that the query gives another value, with both values
     */
    static void checkPerQuery(String table, TableSchema schema, Map<String, String> given) {
        for (String key : new TreeSet<>(given.keySet())) {
            Optional<OptionScope> scope = TableOptions.scope(key);
            String value = given.get(key);
            if (scope.isEmpty()
                    || scope.get() == OptionScope.QUERY
                    || Objects.equals(effective(schema, key), typed(key, value))) {
                continue;
            }
            throw new IllegalArgumentException(
                    scope.get() == OptionScope.CREATE
                            ? String.format(
                                    "Option '%s' of table %s is fixed at creation: the table has"
                                            + " %s, the query gives '%s'. Create a new table to"
                                            + " change it.",
                                    key, table, describe(schema, key), value)
                            : String.format(
                                    "Option '%s' of table %s may change only with ALTER TABLE"
                                            + " ... SET: the table has %s, the query gives '%s'.",
                                    key, table, describe(schema, key), value));
        }
    }

    /**
     * Checks that {@code proposed}, the next schema of a table, changes no option fixed at creation
     * once the table has data ({@code latestSnapshot} present).
     *
     * @throws IllegalArgumentException naming the first such option (by key) and both values
     */
    static void checkAlter(
            String table, TableSchema current, TableSchema proposed, OptionalLong latestSnapshot) {
        if (latestSnapshot.isEmpty()) {
            return;
        }
        String key = firstFixedChange(current, proposed);
        if (key != null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot alter table %s: option '%s' is fixed once the table has data"
                                    + " (it is at snapshot %d): the table has %s, ALTER TABLE"
                                    + " gives %s. Create a new table to change it.",
                            table,
                            key,
                            latestSnapshot.getAsLong(),
                            describe(current, key),
                            describe(proposed, key)));
        }
    }

    /**
     * The first option (by key) fixed at creation whose value {@code proposed} changes from {@code
     * current}'s, or null if none does.
     */
    @Nullable
    static String firstFixedChange(TableSchema current, TableSchema proposed) {
        TreeSet<String> keys = new TreeSet<>(current.options().keySet());
        keys.addAll(proposed.options().keySet());
        // bucket-key has a value (the derived columns) whether or not it is stored. An append
        // table's derived key follows its columns: no rows merge by it, and a scan prunes only
        // files of its own columns by bucket.
        if (current.kind().takesChanges() || keys.contains(TableOptions.BUCKET_KEY.key())) {
            keys.add(TableOptions.BUCKET_KEY.key());
        }
        for (String key : keys) {
            if (TableOptions.scope(key).orElse(null) == OptionScope.CREATE
                    && !Objects.equals(effective(current, key), effective(proposed, key))) {
                return key;
            }
        }
        return null;
    }

    /** The value {@code schema} has for {@code key}, typed: stored, else derived or default. */
    private static Object effective(TableSchema schema, String key) {
        if (key.equals(TableOptions.BUCKET_KEY.key())) {
            return schema.bucketKeys();
        }
        String stored = schema.options().get(key);
        return stored != null ? typed(key, stored) : defaultValue(key);
    }

    /** {@code value} as the table reads it; a value it cannot read stays as it is (and differs). */
    private static Object typed(String key, String value) {
        if (key.equals(TableOptions.BUCKET_KEY.key())) {
            return List.of(value.trim().split("\\s*,\\s*"));
        }
        Optional<ConfigOption<?>> option = TableOptions.option(key);
        if (option.isPresent()) {
            try {
                return Configuration.fromMap(Map.of(key, value)).get(option.get());
            } catch (IllegalArgumentException e) {
                return value;
            }
        }
        if (key.endsWith(LsmOptions.IGNORE_RETRACT_SUFFIX)) {
            return value.trim().toLowerCase(Locale.ROOT);
        }
        return value;
    }

    /** The value of an option the table does not store, typed as {@link #typed} returns it. */
    private static Object defaultValue(String key) {
        Optional<ConfigOption<?>> option = TableOptions.option(key);
        if (option.isPresent()) {
            return option.get().defaultValue();
        }
        if (key.endsWith(LsmOptions.IGNORE_RETRACT_SUFFIX)) {
            return "false";
        }
        if (key.endsWith(LsmOptions.LIST_AGG_DELIMITER_SUFFIX)) {
            return ",";
        }
        return null;
    }

    /** How a message names the value {@code schema} has for {@code key}. */
    static String describe(TableSchema schema, String key) {
        String stored = schema.options().get(key);
        if (stored != null) {
            return "'" + stored + "'";
        }
        if (key.equals(TableOptions.BUCKET_KEY.key())) {
            return "'" + String.join(",", schema.bucketKeys()) + "' (the default)";
        }
        Object fallback = defaultValue(key);
        return fallback == null ? "none" : "'" + fallback + "' (the default)";
    }

    private OptionChanges() {}
}
