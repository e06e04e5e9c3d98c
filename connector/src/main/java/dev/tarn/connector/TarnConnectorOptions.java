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

    /**
     * Whether a lookup join asks the table asynchronously (Paimon's key): the join then has several
     * lookups of one subtask in flight, each answered on a thread of its own.
     */
    public static final ConfigOption<Boolean> LOOKUP_ASYNC =
            ConfigOptions.key("lookup.async")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "A lookup join against the table looks rows up asynchronously, on"
                                    + " 'lookup.async-thread-number' threads per subtask (false:"
                                    + " on the task thread). Flink's LOOKUP hint chooses ordered"
                                    + " or unordered output.");

    /**
     * The most threads {@link #LOOKUP_ASYNC_THREAD_NUMBER} may ask for: each is a thread of the
     * task manager, and more than a thousand per subtask is a typo, not a tuning.
     */
    public static final int MAX_LOOKUP_ASYNC_THREADS = 1024;

    /** The threads of one subtask that answer asynchronous lookups (Paimon's key and default). */
    public static final ConfigOption<Integer> LOOKUP_ASYNC_THREAD_NUMBER =
            ConfigOptions.key("lookup.async-thread-number")
                    .intType()
                    .defaultValue(16)
                    .withDescription(
                            "Threads of one lookup-join subtask that answer lookups when"
                                    + " 'lookup.async' is true (1 to "
                                    + MAX_LOOKUP_ASYNC_THREADS
                                    + ").");

    /** The options of a lookup join against the table, which it does not store. */
    public static final List<ConfigOption<?>> LOOKUP =
            List.of(LOOKUP_ASYNC, LOOKUP_ASYNC_THREAD_NUMBER);

    private TarnConnectorOptions() {}
}
