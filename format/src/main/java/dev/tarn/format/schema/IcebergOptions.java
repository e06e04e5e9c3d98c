package dev.tarn.format.schema;

import java.util.List;
import java.util.Locale;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The table option that makes each commit also publish Apache Iceberg metadata over the table's
 * files (SPEC.md, "Iceberg metadata"), with Apache Paimon's key and values.
 */
public final class IcebergOptions {

    /** Where a table's Iceberg metadata goes ({@code metadata.iceberg.storage}). */
    public enum Storage {
        /** No Iceberg metadata. */
        DISABLED("disabled"),
        /** {@code metadata/} in the table's directory, found by {@code version-hint.text}. */
        TABLE_LOCATION("table-location");

        private final String value;

        Storage(String value) {
            this.value = value;
        }

        /** The option's value for it. */
        public String value() {
            return value;
        }
    }

    /** Paimon's values that keep metadata in a catalog, which Tarn does not write. */
    private static final List<String> CATALOG_VALUES = List.of("hadoop-catalog", "hive-catalog");

    public static final ConfigOption<String> METADATA_ICEBERG_STORAGE =
            ConfigOptions.key("metadata.iceberg.storage")
                    .stringType()
                    .defaultValue(Storage.DISABLED.value())
                    .withDescription(
                            "Whether each commit also publishes Apache Iceberg metadata over the"
                                    + " table's files, so Iceberg readers read the table:"
                                    + " 'disabled', or 'table-location' (metadata/ in the table's"
                                    + " directory, with version-hint.text).");

    /**
     * These options with their scopes: no file depends on the Iceberg metadata, so a table may turn
     * it on or off (the next commit writes it whole).
     */
    static List<TableOption<?>> scoped() {
        return List.of(TableOption.byAlter(METADATA_ICEBERG_STORAGE));
    }

    /**
     * The storage {@code conf} gives.
     *
     * @throws IllegalArgumentException naming the table, the option, the value and the reason
     */
    static Storage read(String table, Configuration conf) {
        String value = TableConfig.get(table, conf, METADATA_ICEBERG_STORAGE);
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (Storage storage : Storage.values()) {
            if (storage.value().equals(normalized)) {
                return storage;
            }
        }
        if (CATALOG_VALUES.contains(normalized)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: Tarn writes Iceberg"
                                    + " metadata only in the table's directory; use"
                                    + " 'table-location' and register that location in the"
                                    + " Iceberg catalog",
                            value, METADATA_ICEBERG_STORAGE.key(), table));
        }
        throw new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option '%s' of table %s: expected one of %s, %s",
                        value,
                        METADATA_ICEBERG_STORAGE.key(),
                        table,
                        Storage.DISABLED.value(),
                        Storage.TABLE_LOCATION.value()));
    }

    private IcebergOptions() {}
}
