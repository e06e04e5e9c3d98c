package dev.tarn.format.schema;

import dev.tarn.format.snapshot.CommitLockOptions;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * A table's options, validated and typed. Built once per table load; every option's value is
 * checked here, so a mistyped or unknown option fails when the table is created or altered, with a
 * message that names the table, the option and the value.
 *
 * @param decodeThreads the threads of one source subtask that open and decode a read's files, batch
 *     or streaming ({@code read.decode-threads})
 * @param lookup how a lookup join caches the table ({@code lookup.*})
 * @param iceberg where commits publish Iceberg metadata ({@code metadata.iceberg.storage})
 */
public record TableConfig(
        int bucket,
        FileCompression compression,
        FileCompression changelogCompression,
        Sizes sizes,
        @Nullable Long scanSnapshotId,
        @Nullable Long scanTimestampMillis,
        Commit commit,
        Lsm lsm,
        StreamConfig stream,
        Lifecycle lifecycle,
        CompactionOptions.Settings compaction,
        int decodeThreads,
        Lookup lookup,
        IcebergOptions.Storage iceberg) {

    /**
     * How a lookup join caches the rows of the buckets it holds. Its memory is {@link
     * Memory#lookupCacheSize}, shared with the {@code lookup} producer's writers' option.
     *
     * @param cache {@code lookup.cache}
     * @param maxDiskBytes local disk it may fill beyond memory ({@code lookup.cache-max-disk-size};
     *     {@link Long#MAX_VALUE} if unset)
     */
    public record Lookup(Cache cache, long maxDiskBytes) {

        /** {@code lookup.cache}: both values keep rows in memory, then on local disk. */
        public enum Cache {
            AUTO,
            FULL
        }
    }

    /**
     * How data files are compressed ({@code file.compression}; changelog files: {@code
     * changelog-file.compression}). The Parquet writer maps each to its page codec ({@code lz4} to
     * LZ4_RAW); all of them have a pure-Java implementation, so the shaded jar needs no native
     * library and no Hadoop.
     */
    public enum FileCompression {
        ZSTD,
        LZ4,
        GZIP,
        NONE;

        /**
         * Parses a table option value, ignoring case: {@code zstd}, {@code lz4}, {@code gzip},
         * {@code none} or its alias {@code uncompressed}.
         */
        public static FileCompression fromOption(String value) {
            String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
            if (normalized.equals("uncompressed")) {
                return NONE;
            }
            for (FileCompression compression : values()) {
                if (compression.name().toLowerCase(Locale.ROOT).equals(normalized)) {
                    return compression;
                }
            }
            String allowed =
                    Arrays.stream(values())
                            .map(c -> c.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "));
            throw new IllegalArgumentException(
                    "Unknown Parquet compression '"
                            + value
                            + "': expected one of "
                            + allowed
                            + ", uncompressed");
        }
    }

    /** Byte sizes that shape files and splits. */
    public record Sizes(long targetFileSize, long rowGroupSize, long splitTargetSize) {}

    /** How commits retry, overwrite and keep their metadata small. */
    public record Commit(
            int maxRetries,
            Duration retryWait,
            boolean dynamicPartitionOverwrite,
            int manifestMergeMinCount,
            long manifestTargetSize) {}

    /**
     * How a primary-key table merges, buffers, flushes and compacts (the per-field merge options
     * are validated against the schema by the LSM tree's merge-function factory).
     *
     * @param mergeEngine how versions of a key fold ({@code merge-engine})
     * @param ordersBySequenceField whether versions are ordered by columns ({@code sequence.field})
     * @param ignoreDelete whether the merge drops retractions ({@code ignore-delete})
     * @param memory what a writer task's buckets buffer and index in memory
     * @param sortedRunStopTrigger runs of a bucket past which writing waits for compaction
     * @param fullCompactionDeltaCommits commits between full compactions; 0 for never
     * @param deletionVectors whether writers keep deletion vectors ({@code
     *     deletion-vectors.enabled})
     * @param deleteRatioThreshold with vectors, the share of a file's rows deleted from which its
     *     writer rewrites it ({@code compaction.delete-ratio-threshold}); 1 for never
     */
    public record Lsm(
            MergeEngine mergeEngine,
            boolean ordersBySequenceField,
            boolean ignoreDelete,
            Memory memory,
            int sortedRunStopTrigger,
            int fullCompactionDeltaCommits,
            boolean deletionVectors,
            double deleteRatioThreshold) {

        /**
         * Whether a key's row is its newest version, whole: the deduplicate engine, ordered by
         * sequence number alone, keeping retractions. The new versions of a flush are then the new
         * rows of its keys.
         */
        public boolean newestVersionIsRow() {
            return mergeEngine == MergeEngine.DEDUPLICATE
                    && !ordersBySequenceField
                    && !ignoreDelete;
        }
    }

    /**
     * The memory of one writer task of a primary-key table, shared by its buckets.
     *
     * @param writeBufferSize bytes that sort changes before they are written ({@code
     *     write-buffer-size})
     * @param spillable whether a full buffer spills to local disk ({@code write-buffer-spillable})
     * @param lookupCacheSize bytes of the index of current rows that {@code changelog-producer} =
     *     {@code lookup} keeps ({@code lookup.cache-max-memory-size})
     */
    public record Memory(long writeBufferSize, boolean spillable, long lookupCacheSize) {}

    /**
     * How snapshot expiration keeps snapshots (SPEC.md, "Snapshot expiration").
     *
     * @param min the fewest snapshots kept ({@code snapshot.num-retained.min}, at least 1)
     * @param max the most kept ({@code snapshot.num-retained.max})
     * @param time snapshots younger than this are kept within {@code max}
     * @param limit the most snapshots one run removes ({@code snapshot.expire.limit})
     */
    public record Retention(int min, int max, Duration time, int limit) {}

    /**
     * A table's snapshot lifecycle: retention, how long consumers and tags protect snapshots (null:
     * for ever), the tag a scan reads ({@code scan.tag-name}, a hint), and after how long without a
     * new record a commit user's pending commits are reported as abandoned ({@code
     * pending-commit.retention}).
     */
    public record Lifecycle(
            Retention retention,
            @Nullable Duration consumerExpiration,
            @Nullable Duration tagTimeRetained,
            @Nullable String scanTagName,
            Duration pendingRetention) {}

    /** Keys a connector or catalog may also pass through a table's options. */
    private static final Set<String> FOREIGN_KEYS = Set.of("connector", "path");

    public static TableConfig of(String table, Map<String, String> options) {
        validateKeys(table, options);
        CommitLockOptions.validate("table " + table, options);
        Configuration conf = Configuration.fromMap(options);
        int bucket = get(table, conf, TableOptions.BUCKET);
        if (bucket == 0 || bucket < -1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid option 'bucket' of table %s: %d. Use a positive number of"
                                    + " buckets, or -1 for no bucketing.",
                            table, bucket));
        }
        String format = get(table, conf, FileOptions.FILE_FORMAT);
        if (!"parquet".equalsIgnoreCase(format)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid option 'file.format' of table %s: '%s'. Supported: parquet.",
                            table, format));
        }
        FileCompression compression = compression(table, conf, FileOptions.FILE_COMPRESSION);
        FileCompression changelogCompression =
                conf.contains(FileOptions.CHANGELOG_FILE_COMPRESSION)
                        ? compression(table, conf, FileOptions.CHANGELOG_FILE_COMPRESSION)
                        : compression;
        Sizes sizes =
                new Sizes(
                        positive(table, conf, FileOptions.TARGET_FILE_SIZE),
                        positive(table, conf, FileOptions.PARQUET_ROW_GROUP_SIZE),
                        positive(table, conf, TableOptions.SOURCE_SPLIT_TARGET_SIZE));
        Commit commit =
                new Commit(
                        get(table, conf, TableOptions.COMMIT_MAX_RETRIES),
                        get(table, conf, TableOptions.COMMIT_RETRY_WAIT),
                        get(table, conf, TableOptions.DYNAMIC_PARTITION_OVERWRITE),
                        Math.max(2, get(table, conf, TableOptions.MANIFEST_MERGE_MIN_COUNT)),
                        positive(table, conf, TableOptions.MANIFEST_TARGET_FILE_SIZE));
        return new TableConfig(
                bucket,
                compression,
                changelogCompression,
                sizes,
                get(table, conf, TableOptions.SCAN_SNAPSHOT_ID),
                get(table, conf, TableOptions.SCAN_TIMESTAMP_MILLIS),
                commit,
                lsm(table, conf),
                StreamConfig.of(table, conf),
                RetentionOptions.read(table, conf),
                CompactionOptions.settings(table, conf),
                ReadOptions.decodeThreads(table, conf),
                LookupOptions.read(table, conf),
                IcebergOptions.read(table, conf));
    }

    private static FileCompression compression(
            String table, Configuration conf, ConfigOption<String> option) {
        try {
            return FileCompression.fromOption(get(table, conf, option));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid option '"
                            + option.key()
                            + "' of table "
                            + table
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static Lsm lsm(String table, Configuration conf) {
        int trigger = get(table, conf, LsmOptions.NUM_SORTED_RUN_COMPACTION_TRIGGER);
        Integer stop = get(table, conf, LsmOptions.NUM_SORTED_RUN_STOP_TRIGGER);
        if (stop != null && stop < trigger) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be at least"
                                    + " '%s' (%d)",
                            stop,
                            LsmOptions.NUM_SORTED_RUN_STOP_TRIGGER.key(),
                            table,
                            LsmOptions.NUM_SORTED_RUN_COMPACTION_TRIGGER.key(),
                            trigger));
        }
        Integer fullEvery = get(table, conf, LsmOptions.FULL_COMPACTION_DELTA_COMMITS);
        if (fullEvery != null && fullEvery < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be at least 1",
                            fullEvery, LsmOptions.FULL_COMPACTION_DELTA_COMMITS.key(), table));
        }
        double deleteRatio = get(table, conf, LsmOptions.COMPACTION_DELETE_RATIO_THRESHOLD);
        if (!(deleteRatio > 0 && deleteRatio <= 1)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: must be above 0 and at"
                                    + " most 1",
                            deleteRatio,
                            LsmOptions.COMPACTION_DELETE_RATIO_THRESHOLD.key(),
                            table));
        }
        return new Lsm(
                MergeEngine.fromOption(table, get(table, conf, LsmOptions.MERGE_ENGINE)),
                get(table, conf, LsmOptions.SEQUENCE_FIELD) != null,
                get(table, conf, LsmOptions.IGNORE_DELETE),
                new Memory(
                        positive(table, conf, LsmOptions.WRITE_BUFFER_SIZE),
                        get(table, conf, LsmOptions.WRITE_BUFFER_SPILLABLE),
                        positive(table, conf, LsmOptions.LOOKUP_CACHE_MAX_MEMORY_SIZE)),
                stop == null ? trigger + 3 : stop,
                fullEvery == null ? 0 : fullEvery,
                get(table, conf, LsmOptions.DELETION_VECTORS_ENABLED),
                deleteRatio);
    }

    private static void validateKeys(String table, Map<String, String> options) {
        Set<String> known = new HashSet<>(FOREIGN_KEYS);
        known.addAll(TableOptions.keys());
        for (String key : options.keySet()) {
            // Per-field merge options are checked against the columns by MergeFunctions.
            if (!known.contains(key) && !key.startsWith(LsmOptions.FIELDS_PREFIX)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Unknown option '%s' for table %s. Supported options: %s",
                                key, table, new TreeSet<>(known)));
            }
        }
    }

    static <T> T get(String table, Configuration conf, ConfigOption<T> option) {
        try {
            return conf.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: %s",
                            conf.toMap().get(option.key()), option.key(), table, e.getMessage()),
                    e);
        }
    }

    private static long positive(
            String table,
            Configuration conf,
            ConfigOption<org.apache.flink.configuration.MemorySize> option) {
        long bytes = get(table, conf, option).getBytes();
        if (bytes <= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: must be positive",
                            conf.toMap().get(option.key()), option.key(), table));
        }
        return bytes;
    }
}
