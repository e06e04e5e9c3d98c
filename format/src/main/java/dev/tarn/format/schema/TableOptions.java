package dev.tarn.format.schema;

import dev.tarn.format.snapshot.CommitLockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The options a table stores in its schema or takes as a per-query hint, and where each may change
 * ({@link #scope}, declared by each option's holder in its {@code scoped()} list). Keys match
 * Apache Paimon where the concept is the same, so users can move between the two. Read once into a
 * {@link TableConfig}; nothing else calls {@code options.get(...)}.
 */
public final class TableOptions {

    /**
     * Where a table option may take a new value. An option that shapes the data already written
     * (how rows are bucketed, how versions of a key merge) belongs to the table: one query using
     * another value would write or read the table as a different table. Each option's scope is
     * declared with the option ({@link TableOption}); {@link OptionChanges} enforces it for hints,
     * path DDL and ALTER.
     */
    public enum OptionScope {

        /** Scan, read and write tuning: may differ per query (a hint, or a path table's DDL). */
        QUERY("per query"),

        /**
         * A property of the whole table that existing files do not depend on (they keep what they
         * were written with): may change with {@code ALTER TABLE ... SET}, never per query.
         */
        ALTER("ALTER TABLE"),

        /**
         * Shapes the data itself (bucketing, merging): set by {@code CREATE TABLE}; {@code ALTER
         * TABLE} may change it only while the table has no snapshot; never per query.
         */
        CREATE("at creation");

        private final String label;

        OptionScope(String label) {
            this.label = label;
        }

        /** How the README's options tables name the scope. */
        public String label() {
            return label;
        }
    }

    /**
     * Buckets of a primary-key table created without 'bucket': each bucket is written by one task,
     * so a few let a job use a few writers without making small tables many small files.
     */
    public static final int PRIMARY_KEY_DEFAULT_BUCKETS = 4;

    public static final ConfigOption<Integer> BUCKET =
            ConfigOptions.key("bucket")
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Number of buckets per partition; rows are hashed to a bucket by"
                                    + " 'bucket-key'. -1 (append tables only): no bucketing."
                                    + " A primary-key table created without it gets "
                                    + PRIMARY_KEY_DEFAULT_BUCKETS
                                    + ", stored in its schema.");

    public static final ConfigOption<String> BUCKET_KEY =
            ConfigOptions.key("bucket-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma-separated columns rows are hashed by. Default: the primary key"
                                    + " without partition columns, or all non-partition columns.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
            ConfigOptions.key("scan.snapshot-id")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Read this snapshot (time travel).");

    public static final ConfigOption<Long> SCAN_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "Read the last snapshot committed at or before this epoch millisecond.");

    public static final ConfigOption<String> SCAN_MODE =
            ConfigOptions.key("scan.mode")
                    .stringType()
                    .defaultValue(StreamConfig.ScanMode.DEFAULT.key())
                    .withDescription(
                            "Where a streaming read starts: 'latest-full' (the latest snapshot,"
                                    + " then every change), 'latest' (changes from now on),"
                                    + " 'from-snapshot' and 'from-snapshot-full' (with"
                                    + " 'scan.snapshot-id' or 'scan.tag-name'), 'from-timestamp'"
                                    + " (changes committed after 'scan.timestamp-millis');"
                                    + " 'default' picks by the options given. A batch read reads"
                                    + " one snapshot whole: the latest, or the one the id, tag or"
                                    + " time selects. A mode without the option it needs, or with"
                                    + " one it does not take, is refused.");

    public static final ConfigOption<String> INCREMENTAL_BETWEEN =
            ConfigOptions.key("incremental-between")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A bounded read of the changes of the snapshots after the first id up"
                                    + " to the second, e.g. '5,10'.");

    public static final ConfigOption<Boolean> STREAMING_READ_OVERWRITE =
            ConfigOptions.key("streaming-read-overwrite")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "A streaming read emits what an INSERT OVERWRITE replaced as -D rows,"
                                    + " then its new rows (false: it skips overwrites).");

    public static final ConfigOption<String> CHANGELOG_PRODUCER =
            ConfigOptions.key("changelog-producer")
                    .stringType()
                    .defaultValue(StreamConfig.ChangelogProducer.NONE.key())
                    .withDescription(
                            "What a streaming read of a primary-key table emits: 'none' (each"
                                    + " snapshot's new versions as upserts and deletes; Flink"
                                    + " normalizes them), 'input' (writers also store their input"
                                    + " changes, and the read emits exactly those), 'lookup'"
                                    + " (writers look up each changed key's previous row and"
                                    + " store the changes of the rows: -U/+U pairs, -D with the"
                                    + " old row), 'full-compaction' (each full compaction, every"
                                    + " 'full-compaction.delta-commits' commits and at the end of"
                                    + " a bounded write, stores the changes since the previous"
                                    + " one). The last two work with any merge engine.");

    public static final ConfigOption<String> CONSUMER_ID =
            ConfigOptions.key("consumer-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A streaming read records in the table the next snapshot it needs,"
                                    + " at each completed checkpoint; a new job with this id and"
                                    + " no state starts there.");

    public static final ConfigOption<Duration> CONTINUOUS_DISCOVERY_INTERVAL =
            ConfigOptions.key("continuous.discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofMillis(500))
                    .withDescription(
                            "How often a streaming read looks for the next snapshot (one"
                                    + " file-system request while the table is idle; half as"
                                    + " often after 2 s idle).");

    public static final ConfigOption<MemorySize> SOURCE_SPLIT_TARGET_SIZE =
            ConfigOptions.key("source.split.target-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("128mb"))
                    .withDescription(
                            "Files of one bucket are packed into read splits of about this size.");

    public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
            ConfigOptions.key("commit.max-retries")
                    .intType()
                    .defaultValue(20)
                    .withDescription(
                            "How often a commit that lost the race for a snapshot id re-reads and"
                                    + " retries before it fails.");

    public static final ConfigOption<Duration> COMMIT_RETRY_WAIT =
            ConfigOptions.key("commit.retry-wait")
                    .durationType()
                    .defaultValue(Duration.ofMillis(10))
                    .withDescription("Base wait between commit retries; it doubles, with jitter.");

    public static final ConfigOption<Boolean> DYNAMIC_PARTITION_OVERWRITE =
            ConfigOptions.key("dynamic-partition-overwrite")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "INSERT OVERWRITE without a full static partition replaces only the"
                                    + " partitions the query writes (false: the whole table, or"
                                    + " the static partition's subtree).");

    public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
            ConfigOptions.key("manifest.merge-min-count")
                    .intType()
                    .defaultValue(30)
                    .withDescription(
                            "Once a snapshot has this many manifests smaller than"
                                    + " 'manifest.target-file-size', a commit merges them.");

    public static final ConfigOption<MemorySize> MANIFEST_TARGET_FILE_SIZE =
            ConfigOptions.key("manifest.target-file-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("8mb"))
                    .withDescription("Target size of a merged manifest file.");

    /**
     * This holder's options with their scopes (see {@link OptionScope}), with the holders' lists in
     * the order the README lists them.
     */
    private static List<TableOption<?>> scoped() {
        List<TableOption<?>> scoped =
                new ArrayList<>(
                        List.of(
                                // Rows are spread over buckets by these; another value would put a
                                // key in two buckets.
                                TableOption.atCreation(BUCKET),
                                TableOption.atCreation(BUCKET_KEY)));
        scoped.addAll(FileOptions.scoped());
        scoped.addAll(
                List.of(
                        TableOption.hintOnly(SCAN_SNAPSHOT_ID),
                        TableOption.hintOnly(SCAN_TIMESTAMP_MILLIS),
                        TableOption.perQuery(SCAN_MODE),
                        TableOption.hintOnly(INCREMENTAL_BETWEEN),
                        TableOption.perQuery(STREAMING_READ_OVERWRITE),
                        // Writers store changelog files by the table's producer, and readers
                        // expect them there.
                        TableOption.byAlter(CHANGELOG_PRODUCER),
                        TableOption.hintOnly(CONSUMER_ID),
                        TableOption.perQuery(CONTINUOUS_DISCOVERY_INTERVAL),
                        TableOption.perQuery(SOURCE_SPLIT_TARGET_SIZE),
                        // Commits and scans only tune their own work.
                        TableOption.perQuery(COMMIT_MAX_RETRIES),
                        TableOption.perQuery(COMMIT_RETRY_WAIT),
                        TableOption.perQuery(DYNAMIC_PARTITION_OVERWRITE),
                        TableOption.perQuery(MANIFEST_MERGE_MIN_COUNT),
                        TableOption.perQuery(MANIFEST_TARGET_FILE_SIZE)));
        scoped.addAll(LsmOptions.scoped());
        scoped.addAll(RetentionOptions.scoped());
        scoped.addAll(CompactionOptions.scoped());
        // Which lock a commit takes is the committing job's setting (usually the catalog's). Their
        // holder is below this package (commits take the lock), so their scope is declared here.
        CommitLockOptions.all().forEach(o -> scoped.add(TableOption.perQuery(o)));
        scoped.addAll(StreamReadOptions.scoped());
        scoped.addAll(ReadOptions.scoped());
        scoped.addAll(LookupOptions.scoped());
        scoped.addAll(IcebergOptions.scoped());
        return scoped;
    }

    /** Every option a table accepts, in the README's order, with its scope. */
    private static final List<TableOption<?>> SCOPED = scoped();

    /** {@link #SCOPED} by key, and by the former keys an option still reads. */
    private static final Map<String, TableOption<?>> BY_KEY = byKey(SCOPED);

    /**
     * {@code options} by key and by former key.
     *
     * @throws IllegalStateException if a key is declared twice
     */
    static Map<String, TableOption<?>> byKey(List<TableOption<?>> options) {
        Map<String, TableOption<?>> byKey = new HashMap<>();
        for (TableOption<?> option : options) {
            List<String> keys = new ArrayList<>(List.of(option.option().key()));
            option.option().fallbackKeys().forEach(former -> keys.add(former.getKey()));
            for (String key : keys) {
                TableOption<?> before = byKey.put(key, option);
                if (before != null) {
                    throw new IllegalStateException(
                            String.format(
                                    "Option '%s' is declared twice: %s, then %s",
                                    key, before.scope().label(), option.scope().label()));
                }
            }
        }
        return Map.copyOf(byKey);
    }

    /** Every key a table accepts for its options: theirs, and the former keys they still read. */
    static Set<String> keys() {
        return BY_KEY.keySet();
    }

    /** Every option a table accepts (validation, the README's tables): these, then the holders'. */
    public static List<ConfigOption<?>> all() {
        return SCOPED.stream().<ConfigOption<?>>map(TableOption::option).toList();
    }

    /**
     * Where an option may change (see {@link OptionScope}), as its holder declares it. Keys of
     * per-field merge options ({@code fields.<field>.aggregate-function}, {@code
     * fields.<field>.ignore-retract}, {@code fields.<field>.list-agg-delimiter}) are classified by
     * their prefix: {@link OptionScope#CREATE}, as every merge option. Column defaults ({@code
     * fields.<field>.default-value}) may change with ALTER TABLE: files never hold them.
     *
     * @return empty for a key that is no table option (validation names it)
     */
    public static Optional<OptionScope> scope(String key) {
        if (ColumnDefaults.isDefaultKey(key)) {
            return Optional.of(OptionScope.ALTER);
        }
        if (key.startsWith(LsmOptions.FIELDS_PREFIX)) {
            return Optional.of(OptionScope.CREATE);
        }
        return Optional.ofNullable(BY_KEY.get(key)).map(TableOption::scope);
    }

    /** The option with this key, or empty (per-field options have no {@link ConfigOption}). */
    public static Optional<ConfigOption<?>> option(String key) {
        return Optional.ofNullable(BY_KEY.get(key)).map(TableOption::option);
    }

    /** Options that describe one query, not the table: never stored in a schema. */
    public static List<ConfigOption<?>> queryOnly() {
        return SCOPED.stream()
                .filter(TableOption::hintOnly)
                .<ConfigOption<?>>map(TableOption::option)
                .toList();
    }

    /**
     * Checks options given for one query (hints, a path DDL's options) against {@code schema}, the
     * table's: an option only the table may set must have the table's value.
     *
     * @throws IllegalArgumentException naming the option and both values
     */
    public static void checkPerQuery(String table, TableSchema schema, Map<String, String> given) {
        OptionChanges.checkPerQuery(table, schema, given);
    }

    private TableOptions() {}
}
