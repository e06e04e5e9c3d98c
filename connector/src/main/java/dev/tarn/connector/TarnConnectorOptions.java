package dev.tarn.connector;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.factories.FactoryUtil;

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

    /**
     * Flink's watermark options for a query ({@code scan.watermark.idle-timeout}, emit strategy,
     * alignment): the planner applies them to a table's pushed-down watermark, so the connector
     * accepts them as hints or in a {@code 'connector' = 'tarn'} DDL and keeps them from the table.
     */
    public static final List<ConfigOption<?>> WATERMARK =
            List.of(
                    FactoryUtil.WATERMARK_EMIT_STRATEGY,
                    FactoryUtil.WATERMARK_ALIGNMENT_GROUP,
                    FactoryUtil.WATERMARK_ALIGNMENT_MAX_DRIFT,
                    FactoryUtil.WATERMARK_ALIGNMENT_UPDATE_INTERVAL,
                    FactoryUtil.SOURCE_IDLE_TIMEOUT);

    private TarnConnectorOptions() {}
}
