package dev.tarn.format.schema;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The table options of a table's snapshot lifecycle: how many snapshots and for how long expiration
 * keeps them, how long a consumer and a tag protect theirs, and which tag a scan reads. Keys match
 * Apache Paimon's. Read once into {@link TableConfig.Lifecycle}.
 */
final class RetentionOptions {

    static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
            ConfigOptions.key("snapshot.num-retained.min")
                    .intType()
                    .defaultValue(10)
                    .withDescription(
                            "The fewest snapshots expiration keeps, however old (at least 1).");

    static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
            ConfigOptions.key("snapshot.num-retained.max")
                    .intType()
                    .defaultValue(Integer.MAX_VALUE)
                    .withDescription(
                            "The most snapshots expiration keeps, however young, unless a consumer"
                                    + " needs older ones (at least 'snapshot.num-retained.min').");

    static final ConfigOption<Duration> SNAPSHOT_TIME_RETAINED =
            ConfigOptions.key("snapshot.time-retained")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "Snapshots younger than this are kept (within"
                                    + " 'snapshot.num-retained.max').");

    static final ConfigOption<Integer> SNAPSHOT_EXPIRE_LIMIT =
            ConfigOptions.key("snapshot.expire.limit")
                    .intType()
                    .defaultValue(10)
                    .withDescription(
                            "The most snapshots one expiration run after a commit removes (a"
                                    + " writing job runs one after each commit, off the commit's"
                                    + " path); CALL sys.expire_snapshots is bounded only by its"
                                    + " max_deletes.");

    static final ConfigOption<Duration> CONSUMER_EXPIRATION_TIME =
            ConfigOptions.key("consumer.expiration-time")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "A consumer not updated for this long no longer protects its"
                                    + " snapshots from expiration; the next expiration deletes its record."
                                    + " Default: consumers never expire.");

    static final ConfigOption<Duration> TAG_DEFAULT_TIME_RETAINED =
            ConfigOptions.key("tag.default-time-retained")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "How long a tag created without 'time_retained' is kept; expiration"
                                    + " removes it after that. Default: tags are kept until"
                                    + " deleted.");

    static final ConfigOption<Duration> PENDING_COMMIT_RETENTION =
            ConfigOptions.key("pending-commit.retention")
                    .durationType()
                    .defaultValue(Duration.ofDays(7))
                    .withDescription(
                            "A commit user whose pending-commit record (the ledger of prepared"
                                    + " files) no job has written for this long is reported by"
                                    + " check_table and remove_orphan_files as probably abandoned;"
                                    + " its record and files are kept until an operator removes"
                                    + " the record.");

    static final ConfigOption<String> SCAN_TAG_NAME =
            ConfigOptions.key("scan.tag-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A batch read reads the snapshot of this tag (not with"
                                    + " 'scan.snapshot-id' or 'scan.timestamp-millis'); a streaming"
                                    + " read starts there: the tag's snapshot whole, then the"
                                    + " changes after it ('scan.mode' 'default' or"
                                    + " 'from-snapshot-full'), or the changes from the tag's"
                                    + " snapshot on ('from-snapshot').");

    /** These options with their scopes, in the order the README lists them. */
    static List<TableOption<?>> scoped() {
        return List.of(
                // How long the table keeps its history is the table's, whoever writes or reads it.
                TableOption.byAlter(SNAPSHOT_NUM_RETAINED_MIN),
                TableOption.byAlter(SNAPSHOT_NUM_RETAINED_MAX),
                TableOption.byAlter(SNAPSHOT_TIME_RETAINED),
                TableOption.byAlter(SNAPSHOT_EXPIRE_LIMIT),
                TableOption.byAlter(CONSUMER_EXPIRATION_TIME),
                TableOption.byAlter(TAG_DEFAULT_TIME_RETAINED),
                TableOption.byAlter(PENDING_COMMIT_RETENTION),
                // Which tag one read starts from.
                TableOption.hintOnly(SCAN_TAG_NAME));
    }

    static TableConfig.Lifecycle read(String table, Configuration conf) {
        int min = atLeast(table, conf, SNAPSHOT_NUM_RETAINED_MIN, 1);
        int max = atLeast(table, conf, SNAPSHOT_NUM_RETAINED_MAX, min);
        int limit = atLeast(table, conf, SNAPSHOT_EXPIRE_LIMIT, 1);
        return new TableConfig.Lifecycle(
                new TableConfig.Retention(
                        min, max, TableConfig.get(table, conf, SNAPSHOT_TIME_RETAINED), limit),
                TableConfig.get(table, conf, CONSUMER_EXPIRATION_TIME),
                TableConfig.get(table, conf, TAG_DEFAULT_TIME_RETAINED),
                TableConfig.get(table, conf, SCAN_TAG_NAME),
                positive(table, conf, PENDING_COMMIT_RETENTION));
    }

    private static int atLeast(
            String table, Configuration conf, ConfigOption<Integer> option, int least) {
        int value = TableConfig.get(table, conf, option);
        if (value < least) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be at least %d",
                            value, option.key(), table, least));
        }
        return value;
    }

    private static Duration positive(
            String table, Configuration conf, ConfigOption<Duration> option) {
        Duration value = TableConfig.get(table, conf, option);
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: must be positive",
                            value, option.key(), table));
        }
        return value;
    }

    private RetentionOptions() {}
}
