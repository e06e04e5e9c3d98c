package dev.tarn.format.schema;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The table options of every read's source subtasks, batch and streaming alike: how many threads
 * open and decode their files ({@link TableConfig#decodeThreads}).
 */
final class ReadOptions {

    /** The key {@link #DECODE_THREADS} had when only streaming reads used several threads. */
    static final String FORMER_DECODE_THREADS_KEY = "streaming-read.decode-threads";

    /** The most decode threads a subtask may have: each holds decoded batches of its own. */
    private static final int MAX_DECODE_THREADS = 16;

    /**
     * Default 2, for batch reads as for streaming ones: on a 2-core machine a second thread lets a
     * subtask decode one split while its task thread emits another's rows, and a third decoded no
     * faster while holding another row group.
     */
    static final ConfigOption<Integer> DECODE_THREADS =
            ConfigOptions.key("read.decode-threads")
                    .intType()
                    .defaultValue(2)
                    .withDeprecatedKeys(FORMER_DECODE_THREADS_KEY)
                    .withDescription(
                            "Threads of one source subtask that open and decode the files of a"
                                    + " read, beside the task thread that emits the rows (1 to "
                                    + MAX_DECODE_THREADS
                                    + "; each holds the row group it is reading). A batch read gives"
                                    + " each split to a free thread; a streaming read gives each"
                                    + " bucket's splits to one of them, in order, so a key's"
                                    + " changes keep their order. A lookup join subtask loads"
                                    + " the table's buckets on as many threads. Formerly"
                                    + " '"
                                    + FORMER_DECODE_THREADS_KEY
                                    + "', which is still read.");

    /** These options with their scopes: how a read decodes is its own choice. */
    static List<TableOption<?>> scoped() {
        return List.of(TableOption.perQuery(DECODE_THREADS));
    }

    /**
     * The decode threads {@code conf} gives, under the key or its former one (the key wins).
     *
     * @throws IllegalArgumentException naming the table, the key given and its value
     */
    static int decodeThreads(String table, Configuration conf) {
        ConfigOption<Integer> given =
                conf.containsKey(FORMER_DECODE_THREADS_KEY)
                                && !conf.containsKey(DECODE_THREADS.key())
                        ? ConfigOptions.key(FORMER_DECODE_THREADS_KEY)
                                .intType()
                                .defaultValue(DECODE_THREADS.defaultValue())
                        : DECODE_THREADS;
        int threads = TableConfig.get(table, conf, given);
        if (threads < 1 || threads > MAX_DECODE_THREADS) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%d' for option '%s' of table %s: must be 1 to %d",
                            threads, given.key(), table, MAX_DECODE_THREADS));
        }
        return threads;
    }

    private ReadOptions() {}
}
