package dev.tarn.format.schema;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

/**
 * The table options of a streaming read's source subtasks: whether they complete a primary-key
 * table's upserts into a changelog themselves (SPEC.md, "Streaming reads") and the memory they may
 * keep for it ({@link StreamConfig.Completion}). How many threads decode a read's files is one of
 * {@link ReadOptions}, for batch reads too.
 */
final class StreamReadOptions {

    static final ConfigOption<Boolean> LOOKUP_CHANGELOG =
            ConfigOptions.key("streaming-read.lookup-changelog")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "A streaming read of a primary-key table with changelog-producer"
                                    + " 'none' and the deduplicate engine, from a full snapshot or"
                                    + " the table's first, emits a complete changelog (+I, -U/+U"
                                    + " with the previous row, -D with the old row): each source"
                                    + " subtask keeps its buckets' current rows and looks up the"
                                    + " row each change replaces, so Flink adds no normalizing"
                                    + " operator after the source. false: upserts, which Flink"
                                    + " normalizes with state of its own.");

    static final ConfigOption<MemorySize> LOOKUP_MEMORY =
            ConfigOptions.key("streaming-read.lookup-memory")
                    .memoryType()
                    .defaultValue(MemorySize.parse("256mb"))
                    .withDescription(
                            "Memory of one source subtask for its buckets' current rows"
                                    + " ('streaming-read.lookup-changelog'); past it, the least"
                                    + " recently used bucket's rows give way and are read from its"
                                    + " files again when next needed, and a bucket too large for"
                                    + " it reads the previous rows from its files at each"
                                    + " snapshot.");

    /**
     * These options with their scopes: whether a streaming read completes upserts into a changelog,
     * and how, is its own choice.
     */
    static List<TableOption<?>> scoped() {
        return List.of(TableOption.perQuery(LOOKUP_CHANGELOG), TableOption.perQuery(LOOKUP_MEMORY));
    }

    static StreamConfig.Completion read(String table, Configuration conf) {
        long bytes = TableConfig.get(table, conf, LOOKUP_MEMORY).getBytes();
        if (bytes <= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of table %s: must be positive",
                            conf.toMap().get(LOOKUP_MEMORY.key()), LOOKUP_MEMORY.key(), table));
        }
        return new StreamConfig.Completion(TableConfig.get(table, conf, LOOKUP_CHANGELOG), bytes);
    }

    private StreamReadOptions() {}
}
