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
     * Set by a Tarn catalog on its system tables ({@code t$snapshots}, ...): the table at {@code
     * path} is read as that system table. Not for users: a catalog that offers no system tables
     * cannot read one.
     */
    public static final ConfigOption<String> SYSTEM_TABLE =
            ConfigOptions.key("system-table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Set by a Tarn catalog: read the table at 'path' as this system table"
                                    + " (e.g. 'snapshots'); read-only.");

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
