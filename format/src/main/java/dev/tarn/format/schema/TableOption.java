package dev.tarn.format.schema;

import dev.tarn.format.schema.TableOptions.OptionScope;
import java.util.Objects;
import org.apache.flink.configuration.ConfigOption;

/**
 * A table option with where it may take a new value, as the holder that declares the option
 * declares it (each holder's {@code scoped()} list, next to its options). Flink's {@link
 * ConfigOption} carries no data of ours, hence this pair.
 *
 * @param hintOnly the option describes one query, never the table: it is given as a hint (or in a
 *     path DDL) and never stored in a schema ({@link OptionScope#QUERY} too)
 */
record TableOption<T>(ConfigOption<T> option, OptionScope scope, boolean hintOnly) {

    TableOption {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(scope, "scope of option " + option.key());
        if (hintOnly && scope != OptionScope.QUERY) {
            throw new IllegalArgumentException(
                    "Option '" + option.key() + "' is never stored, so it can only be per query");
        }
    }

    /** Shapes the data already written: set at creation ({@link OptionScope#CREATE}). */
    static <T> TableOption<T> atCreation(ConfigOption<T> option) {
        return new TableOption<>(option, OptionScope.CREATE, false);
    }

    /** A property of the whole table, which files do not depend on ({@link OptionScope#ALTER}). */
    static <T> TableOption<T> byAlter(ConfigOption<T> option) {
        return new TableOption<>(option, OptionScope.ALTER, false);
    }

    /** Tuning that may differ per query, and may be stored ({@link OptionScope#QUERY}). */
    static <T> TableOption<T> perQuery(ConfigOption<T> option) {
        return new TableOption<>(option, OptionScope.QUERY, false);
    }

    /** Describes one query (which snapshot, which consumer): a hint only, never stored. */
    static <T> TableOption<T> hintOnly(ConfigOption<T> option) {
        return new TableOption<>(option, OptionScope.QUERY, true);
    }
}
