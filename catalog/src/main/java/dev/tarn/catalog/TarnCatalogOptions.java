package dev.tarn.catalog;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of {@code CREATE CATALOG ... WITH ('type' = 'tarn', ...)}. Read once by {@link
 * TarnCatalogFactory}; table options belong to the format ({@code TableOptions}), not here.
 */
public final class TarnCatalogOptions {

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Absolute URI of the directory that holds the catalog's databases,"
                                    + " e.g. 'file:///data/lake' or 's3://bucket/lake'. Each"
                                    + " database is a directory '<name>.db' in it, each table a"
                                    + " directory in its database.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database")
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "The database a session starts in; created when the catalog opens if"
                                    + " it does not exist.");

    private TarnCatalogOptions() {}
}
