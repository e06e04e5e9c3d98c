package dev.tarn.format.schema;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

/**
 * The table options of a lookup join that reads the table as its dimension side ({@link
 * TableConfig.Lookup}): how its rows are cached and how much local disk the cache may take. Its
 * memory is {@code lookup.cache-max-memory-size} ({@link LsmOptions}), its refresh interval {@code
 * continuous.discovery-interval}. Public for the lookup's own messages, which name its options.
 */
public final class LookupOptions {

    static final ConfigOption<String> LOOKUP_CACHE =
            ConfigOptions.key("lookup.cache")
                    .stringType()
                    .defaultValue("auto")
                    .withDescription(
                            "How a lookup join caches the table's rows: 'auto' keeps the rows of the"
                                    + " buckets a join subtask holds in memory and beyond"
                                    + " 'lookup.cache-max-memory-size' in local files; 'full' is"
                                    + " accepted for Paimon's users and behaves the same.");

    public static final ConfigOption<MemorySize> LOOKUP_CACHE_MAX_DISK_SIZE =
            ConfigOptions.key("lookup.cache-max-disk-size")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "Local disk one copy of a lookup join's rows (see"
                                    + " 'lookup.cache-max-memory-size') may fill beyond its"
                                    + " memory; unlimited if unset.");

    /** These options with their scopes: how a join caches the table is the join's own choice. */
    static List<TableOption<?>> scoped() {
        return List.of(
                TableOption.perQuery(LOOKUP_CACHE),
                TableOption.perQuery(LOOKUP_CACHE_MAX_DISK_SIZE));
    }

    /**
     * The lookup settings {@code conf} gives.
     *
     * @throws IllegalArgumentException naming the table, the option, the value and the reason
     */
    static TableConfig.Lookup read(String table, Configuration conf) {
        String cache = TableConfig.get(table, conf, LOOKUP_CACHE);
        TableConfig.Lookup.Cache mode = null;
        for (TableConfig.Lookup.Cache c : TableConfig.Lookup.Cache.values()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(cache.trim().toLowerCase(Locale.ROOT))) {
                mode = c;
            }
        }
        if (mode == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: expected one of %s",
                            cache,
                            LOOKUP_CACHE.key(),
                            table,
                            Arrays.stream(TableConfig.Lookup.Cache.values())
                                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", "))));
        }
        long disk = Long.MAX_VALUE;
        if (conf.contains(LOOKUP_CACHE_MAX_DISK_SIZE)) {
            disk = TableConfig.get(table, conf, LOOKUP_CACHE_MAX_DISK_SIZE).getBytes();
            if (disk <= 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid value '%s' for option '%s' of table %s: must be positive"
                                        + " (leave it unset for no limit)",
                                conf.toMap().get(LOOKUP_CACHE_MAX_DISK_SIZE.key()),
                                LOOKUP_CACHE_MAX_DISK_SIZE.key(),
                                table));
            }
        }
        return new TableConfig.Lookup(mode, disk);
    }

    private LookupOptions() {}
}
