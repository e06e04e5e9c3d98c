package dev.tarn.format.schema;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The table options that shape a primary-key table's LSM trees: how versions merge and when runs
 * compact. Keys match Apache Paimon's. Read once by the LSM tree's merge-function factory and
 * compaction picker; per-field aggregation options are templates on {@code fields.<field>.}. {@code
 * merge-engine} is typed as {@link MergeEngine} in {@link TableConfig.Lsm}.
 */
public final class LsmOptions {

    public static final ConfigOption<String> MERGE_ENGINE =
            ConfigOptions.key("merge-engine")
                    .stringType()
                    .defaultValue("deduplicate")
                    .withDescription(
                            "How versions of a key merge: deduplicate, partial-update,"
                                    + " aggregation or first-row.");

    public static final ConfigOption<String> SEQUENCE_FIELD =
            ConfigOptions.key("sequence.field")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma-separated columns that order the versions of a key (then"
                                    + " arrival order), instead of arrival order alone.");

    public static final ConfigOption<Boolean> IGNORE_DELETE =
            ConfigOptions.key("ignore-delete")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription("Drop DELETE and UPDATE_BEFORE changes on input.");

    /** Prefix of the per-field options {@code fields.<field>.<option>}. */
    public static final String FIELDS_PREFIX = "fields.";

    /** {@code fields.<field>.aggregate-function}; default {@link #DEFAULT_AGGREGATE_FUNCTION}. */
    public static final String AGGREGATE_FUNCTION_SUFFIX = ".aggregate-function";

    /** {@code fields.<field>.ignore-retract}: skip retractions of this field; default false. */
    public static final String IGNORE_RETRACT_SUFFIX = ".ignore-retract";

    /** {@code fields.<field>.list-agg-delimiter}: separator of listagg; default ",". */
    public static final String LIST_AGG_DELIMITER_SUFFIX = ".list-agg-delimiter";

    public static final ConfigOption<String> DEFAULT_AGGREGATE_FUNCTION =
            ConfigOptions.key("fields.default-aggregate-function")
                    .stringType()
                    .defaultValue("last_non_null_value")
                    .withDescription(
                            "Aggregate function of non-key fields without their own"
                                    + " 'fields.<field>.aggregate-function'.");

    public static final ConfigOption<Integer> NUM_SORTED_RUN_COMPACTION_TRIGGER =
            ConfigOptions.key("num-sorted-run.compaction-trigger")
                    .intType()
                    .defaultValue(5)
                    .withDescription(
                            "Compaction starts once a bucket has this many sorted runs (each"
                                    + " level-0 file is a run, each higher level one run).");

    public static final ConfigOption<Integer> COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT =
            ConfigOptions.key("compaction.max-size-amplification-percent")
                    .intType()
                    .defaultValue(200)
                    .withDescription(
                            "Full compaction when all runs but the oldest take this percentage"
                                    + " of the oldest run's size or more.");

    public static final ConfigOption<Integer> COMPACTION_SIZE_RATIO =
            ConfigOptions.key("compaction.size-ratio")
                    .intType()
                    .defaultValue(1)
                    .withDescription(
                            "Percentage of flexibility when comparing run sizes: a run joins the"
                                    + " newer runs being compacted if it is at most (100 + ratio)%"
                                    + " of their total size.");

    public static final ConfigOption<Integer> NUM_LEVELS =
            ConfigOptions.key("num-levels")
                    .intType()
                    .defaultValue(6)
                    .withDescription(
                            "Levels of a bucket's LSM tree, level 0 included; the last level,"
                                    + " num-levels - 1, holds no tombstones.");

    public static final ConfigOption<Integer> NUM_SORTED_RUN_STOP_TRIGGER =
            ConfigOptions.key("num-sorted-run.stop-trigger")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Writing a bucket waits for its running compaction once the bucket"
                                    + " has this many sorted runs; default"
                                    + " num-sorted-run.compaction-trigger + 3.");

    public static final ConfigOption<MemorySize> WRITE_BUFFER_SIZE =
            ConfigOptions.key("write-buffer-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("256mb"))
                    .withDescription(
                            "Memory of one writer task for sorting the changes of all its buckets"
                                    + " of a primary-key table before they are written.");

    public static final ConfigOption<Boolean> WRITE_BUFFER_SPILLABLE =
            ConfigOptions.key("write-buffer-spillable")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "When the write buffer is full, spill sorted changes to local disk"
                                    + " and write fewer, larger level-0 files at the next"
                                    + " checkpoint (false: write a level-0 file right away).");

    public static final ConfigOption<MemorySize> LOOKUP_CACHE_MAX_MEMORY_SIZE =
            ConfigOptions.key("lookup.cache-max-memory-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("256mb"))
                    .withDescription(
                            "Memory of one writer task for the index of its buckets' current rows"
                                    + " that changelog-producer 'lookup' looks up; past it, the"
                                    + " least recently used bucket's index gives way, and a bucket"
                                    + " too large for it reads previous rows from its files at"
                                    + " each flush. Also the memory of one copy of a lookup join's"
                                    + " rows (one per TaskManager, shared by the join's subtasks"
                                    + " there; one per subtask with the shuffle hint); past it,"
                                    + " they spill to local files (up to"
                                    + " 'lookup.cache-max-disk-size').");

    public static final ConfigOption<Integer> FULL_COMPACTION_DELTA_COMMITS =
            ConfigOptions.key("full-compaction.delta-commits")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Compact every bucket a writer holds fully, to the last level, every"
                                    + " this many commits of that writer (at least 1); with"
                                    + " changelog-producer 'full-compaction', 1 if unset, and it"
                                    + " bounds how many checkpoints a change takes to reach"
                                    + " streaming readers.");

    public static final ConfigOption<Boolean> DELETION_VECTORS_ENABLED =
            ConfigOptions.key("deletion-vectors.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Writers mark the rows each change replaces as deleted (deletion"
                                    + " vectors, stored in index files), so batch reads read"
                                    + " every file on its own, without merging by key. Can be"
                                    + " turned on for a table with data; turning it off is"
                                    + " refused while vectors exist.");

    public static final ConfigOption<Double> COMPACTION_DELETE_RATIO_THRESHOLD =
            ConfigOptions.key("compaction.delete-ratio-threshold")
                    .doubleType()
                    .defaultValue(0.5)
                    .withDescription(
                            "With deletion vectors, a writer rewrites a file on its own, at its"
                                    + " level and without its deleted rows, once its vector"
                                    + " deletes at least this share of its rows and the bucket"
                                    + " needs no other compaction (above 0, at most 1; 1 rewrites"
                                    + " none). Bounds the deleted rows a batch read decodes.");

    /** Every option of a primary-key table, for validation and the README's options table. */
    public static List<ConfigOption<?>> all() {
        return scoped().stream().<ConfigOption<?>>map(TableOption::option).toList();
    }

    /** {@link #all()} with their scopes. */
    static List<TableOption<?>> scoped() {
        // How stored versions of a key combine, and which LSM level may drop tombstones, are fixed
        // at creation: another value would change (or lose) rows already written. The writers'
        // memory and compaction tuning changes no row.
        return List.of(
                TableOption.atCreation(MERGE_ENGINE),
                TableOption.atCreation(SEQUENCE_FIELD),
                TableOption.atCreation(IGNORE_DELETE),
                TableOption.atCreation(DEFAULT_AGGREGATE_FUNCTION),
                TableOption.perQuery(WRITE_BUFFER_SIZE),
                TableOption.perQuery(WRITE_BUFFER_SPILLABLE),
                TableOption.perQuery(LOOKUP_CACHE_MAX_MEMORY_SIZE),
                TableOption.perQuery(NUM_SORTED_RUN_COMPACTION_TRIGGER),
                TableOption.perQuery(NUM_SORTED_RUN_STOP_TRIGGER),
                TableOption.perQuery(COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT),
                TableOption.perQuery(COMPACTION_SIZE_RATIO),
                TableOption.atCreation(NUM_LEVELS),
                TableOption.perQuery(FULL_COMPACTION_DELTA_COMMITS),
                TableOption.perQuery(COMPACTION_DELETE_RATIO_THRESHOLD),
                TableOption.byAlter(DELETION_VECTORS_ENABLED));
    }

    private LsmOptions() {}
}
