package dev.tarn.connector;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Options of the {@code 'connector' = 'tarn'} table connector (table options live in format). */
public final class TarnConnectorOptions {

    public static final ConfigOption<String> PATH =
            ConfigOptions.key("path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Location of the table, e.g. file:///data/lake/db.db/orders. Without"
                                    + " a catalog, a table is created there on first use from the"
                                    + " DDL's schema.");

    private TarnConnectorOptions() {}
}
