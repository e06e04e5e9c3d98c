package dev.tarn.format.lsm;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The table options that shape a primary-key table's LSM trees: how versions merge and when runs
 * compact. Keys match Apache Paimon's. Read once by {@link MergeFunctions#create} and {@link
 * UniversalCompaction#fromOptions}; per-field aggregation options are templates on {@code
 * fields.<field>.}.
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

    private LsmOptions() {}
}
