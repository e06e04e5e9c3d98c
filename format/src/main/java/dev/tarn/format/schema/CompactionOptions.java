package dev.tarn.format.schema;

import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The table options that say who compacts a table and when an append table's writer merges its
 * small files. Keys match Apache Paimon's. Read once into {@link Settings} (part of {@link
 * TableConfig}); a dedicated compaction job ({@code CALL sys.compact}) compacts whatever they say.
 */
public final class CompactionOptions {

    public static final ConfigOption<Boolean> WRITE_ONLY =
            ConfigOptions.key("write-only")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Writers never compact: a primary-key writer still flushes sorted"
                                    + " runs but never compacts them, an append writer never"
                                    + " merges its small files; a compaction job (CALL"
                                    + " sys.compact) compacts the table.");

    public static final ConfigOption<Integer> MIN_FILE_NUM =
            ConfigOptions.key("compaction.min.file-num")
                    .intType()
                    .defaultValue(5)
                    .withDescription(
                            "A streaming writer of an append table merges the small files (below"
                                    + " 'target-file-size') it wrote into one bucket once this"
                                    + " many are published.");

    public static final ConfigOption<Integer> MAX_FILE_NUM =
            ConfigOptions.key("compaction.max.file-num")
                    .intType()
                    .defaultValue(50)
                    .withDescription(
                            "At most this many small files go into one merge of an append"
                                    + " table's writer.");

    /**
     * The compaction options of one table, typed.
     *
     * @param writeOnly writers never compact ({@code write-only})
     * @param minFileNum small files of a bucket that make an append writer merge them
     * @param maxFileNum small files one merge of an append writer takes at most
     */
    public record Settings(boolean writeOnly, int minFileNum, int maxFileNum) {}

    /**
     * These options with their scopes: whether and when a writing job compacts is its own choice (a
     * compaction job may run beside write-only writers); compaction changes no row.
     */
    static List<TableOption<?>> scoped() {
        return List.of(
                TableOption.perQuery(WRITE_ONLY),
                TableOption.perQuery(MIN_FILE_NUM),
                TableOption.perQuery(MAX_FILE_NUM));
    }

    /**
     * Reads and checks the options of {@code table}.
     *
     * @throws IllegalArgumentException naming the option, the table and the value
     */
    static Settings settings(String table, Configuration conf) {
        int min = TableConfig.get(table, conf, MIN_FILE_NUM);
        int max = TableConfig.get(table, conf, MAX_FILE_NUM);
        if (min < 2) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be at least 2",
                            min, MIN_FILE_NUM.key(), table));
        }
        if (max < min) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be at least"
                                    + " '%s' (%d)",
                            max, MAX_FILE_NUM.key(), table, MIN_FILE_NUM.key(), min));
        }
        return new Settings(TableConfig.get(table, conf, WRITE_ONLY), min, max);
    }

    /** As {@link #settings(String, Configuration)}, from a table's option map. */
    public static Settings settings(String table, Map<String, String> options) {
        return settings(table, Configuration.fromMap(options));
    }

    private CompactionOptions() {}
}
