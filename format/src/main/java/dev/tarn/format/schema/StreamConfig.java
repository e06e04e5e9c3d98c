package dev.tarn.format.schema;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;

/**
 * How a read follows a table's snapshots, and what a primary-key table's writers store for it: the
 * streaming options of {@link TableConfig}, validated and typed.
 *
 * @param mode where a streaming read starts ({@code scan.mode})
 * @param between the bounded read of some snapshots' changes ({@code incremental-between}), or null
 * @param readOverwrite whether a streaming read emits what an OVERWRITE replaced
 * @param changelogProducer what a primary-key table's writers store for streaming reads
 * @param consumerId the id under which a streaming read records its progress, or null
 * @param discoveryInterval how often a streaming read probes for the next snapshot
 * @param completion whether and with how much memory a read completes upserts into a changelog
 */
public record StreamConfig(
        ScanMode mode,
        @Nullable Between between,
        boolean readOverwrite,
        ChangelogProducer changelogProducer,
        @Nullable String consumerId,
        Duration discoveryInterval,
        Completion completion) {

    /**
     * A read's completion of a primary-key table's upserts into a changelog ({@code
     * streaming-read.lookup-changelog}).
     *
     * @param enabled whether a read that may complete them does
     * @param memoryBytes the memory of one source subtask for its buckets' current rows
     */
    public record Completion(boolean enabled, long memoryBytes) {}

    /** The changes of snapshots {@code after + 1} to {@code upTo}, both ids of the table. */
    public record Between(long after, long upTo) {}

    /**
     * Where a read starts ({@code scan.mode}, with Apache Paimon's names), and which {@link
     * ScanPosition} it takes. A streaming read starts with the full contents of a snapshot followed
     * by the changes of every later one, or with the changes alone. A batch read always reads one
     * snapshot whole: the latest, or the one the position selects.
     */
    public enum ScanMode {

        /**
         * Any position, or none: {@link #FROM_SNAPSHOT} with {@code scan.snapshot-id}, {@link
         * #FROM_SNAPSHOT_FULL} with {@code scan.tag-name}, {@link #FROM_TIMESTAMP} with {@code
         * scan.timestamp-millis}, a bounded read of changes with {@code incremental-between}, else
         * {@link #LATEST_FULL}.
         */
        DEFAULT("default", false, ScanPosition.values()),

        /** The latest snapshot whole, then the changes of every later snapshot. */
        LATEST_FULL("latest-full", false),

        /** Only the changes of snapshots committed after the read starts. */
        LATEST("latest", false),

        /** The changes of the snapshot an id or a tag selects and of every later one. */
        FROM_SNAPSHOT("from-snapshot", true, ScanPosition.SNAPSHOT_ID, ScanPosition.TAG),

        /** The snapshot an id or a tag selects whole, then the changes of every later snapshot. */
        FROM_SNAPSHOT_FULL("from-snapshot-full", true, ScanPosition.SNAPSHOT_ID, ScanPosition.TAG),

        /** The changes of the snapshots committed after {@code scan.timestamp-millis}. */
        FROM_TIMESTAMP("from-timestamp", true, ScanPosition.TIMESTAMP);

        private final String key;
        private final boolean needsPosition;
        private final List<ScanPosition> takes;

        ScanMode(String key, boolean needsPosition, ScanPosition... takes) {
            this.key = key;
            this.needsPosition = needsPosition;
            this.takes = List.of(takes);
        }

        /** The value of {@code scan.mode} that selects this mode. */
        public String key() {
            return key;
        }

        /** Whether a read in this mode needs one of the positions it {@link #takes}. */
        public boolean needsPosition() {
            return needsPosition;
        }

        /** The positions a read in this mode may be given, in the order errors name them. */
        public List<ScanPosition> takes() {
            return takes;
        }

        /**
         * The mode the option value names, matched exactly.
         *
         * @throws IllegalArgumentException naming the value, the table and the supported values
         */
        public static ScanMode fromOption(String table, String value) {
            for (ScanMode mode : values()) {
                if (mode.key.equals(value)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option 'scan.mode' of table %s; supported are %s",
                            value, table, keys()));
        }

        static List<String> keys() {
            return Arrays.stream(values()).map(ScanMode::key).toList();
        }

        @Override
        public String toString() {
            return key;
        }
    }

    /**
     * What a streaming read of a primary-key table emits, and what its writers store for it ({@code
     * changelog-producer}, with Apache Paimon's names). Append tables have no producer: their new
     * files are their changes.
     */
    public enum ChangelogProducer {

        /**
         * Writers store nothing extra; a streaming read emits each snapshot's new versions as
         * upserts and deletes by key, which Flink normalizes into a changelog with state of its
         * own.
         */
        NONE("none"),

        /**
         * Writers also store their input, every change as it came, in changelog files beside the
         * data files; a streaming read emits exactly those, so a complete input changelog passes
         * through.
         */
        INPUT("input"),

        /**
         * Writers look up each changed key's previous row at each flush and store the changes of
         * the rows in changelog files ({@code +I}, {@code -U}/{@code +U}, {@code -D} with the old
         * row); a streaming read emits exactly those, whatever the merge engine.
         */
        LOOKUP("lookup"),

        /**
         * Full compactions of a bucket (every {@code full-compaction.delta-commits} commits of its
         * writer, and at the end of a bounded input) store the changes between the rows of the last
         * level they replace and the rows they write; a streaming read emits exactly those,
         * whatever the merge engine, and its full phase reads the last level alone.
         */
        FULL_COMPACTION("full-compaction");

        private final String key;

        ChangelogProducer(String key) {
            this.key = key;
        }

        /** The value of {@code changelog-producer} that selects this producer. */
        public String key() {
            return key;
        }

        /** Whether writers store changelog files for it. */
        public boolean writesChangelogFiles() {
            return this != NONE;
        }

        /** Whether writers store their input as it came, so the input must hold every change. */
        public boolean storesInput() {
            return this == INPUT;
        }

        /**
         * Whether the stored changelog is the changes of the rows, computed by the writers with the
         * merge engine, rather than the writers' input or new versions.
         */
        public boolean computesRowChanges() {
            return this == LOOKUP || this == FULL_COMPACTION;
        }

        /**
         * Whether the changelog starts from the rows of the last level (the last full compaction's
         * result) rather than from the table's rows: then a streaming read's full phase reads the
         * last level alone, and the next full compaction's changelog brings it up to date.
         */
        public boolean changesFromLastLevel() {
            return this == FULL_COMPACTION;
        }

        /**
         * The producer the option value names, matched exactly.
         *
         * @throws IllegalArgumentException naming the value, the table and the supported values
         */
        public static ChangelogProducer fromOption(String table, String value) {
            for (ChangelogProducer producer : values()) {
                if (producer.key.equals(value)) {
                    return producer;
                }
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option 'changelog-producer' of table %s; supported"
                                    + " are %s",
                            value, table, keys()));
        }

        static List<String> keys() {
            return Arrays.stream(values()).map(p -> p.key).toList();
        }

        @Override
        public String toString() {
            return key;
        }
    }

    static StreamConfig of(String table, Configuration conf) {
        String consumer = TableConfig.get(table, conf, TableOptions.CONSUMER_ID);
        if (consumer != null && !consumer.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option 'consumer-id' of table %s: use letters,"
                                    + " digits, '_', '-' and '.'",
                            consumer, table));
        }
        Duration interval =
                TableConfig.get(table, conf, TableOptions.CONTINUOUS_DISCOVERY_INTERVAL);
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: must be positive",
                            conf.toMap().get(TableOptions.CONTINUOUS_DISCOVERY_INTERVAL.key()),
                            TableOptions.CONTINUOUS_DISCOVERY_INTERVAL.key(),
                            table));
        }
        return new StreamConfig(
                ScanMode.fromOption(table, TableConfig.get(table, conf, TableOptions.SCAN_MODE)),
                between(table, TableConfig.get(table, conf, TableOptions.INCREMENTAL_BETWEEN)),
                TableConfig.get(table, conf, TableOptions.STREAMING_READ_OVERWRITE),
                ChangelogProducer.fromOption(
                        table, TableConfig.get(table, conf, TableOptions.CHANGELOG_PRODUCER)),
                consumer,
                interval,
                StreamReadOptions.read(table, conf));
    }

    @Nullable
    private static Between between(String table, @Nullable String value) {
        if (value == null) {
            return null;
        }
        String[] ids = value.split(",");
        try {
            if (ids.length == 2) {
                long after = Long.parseLong(ids[0].trim());
                long upTo = Long.parseLong(ids[1].trim());
                if (after >= 0 && upTo > after) {
                    return new Between(after, upTo);
                }
            }
        } catch (NumberFormatException e) {
            // Reported below with the expected form.
        }
        throw new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option 'incremental-between' of table %s: give two"
                                + " snapshot ids 'after,upTo' with after < upTo, e.g. '5,10'",
                        value, table));
    }
}
