package dev.tarn.format.schema;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Table options of the files writers write: their format, codecs and sizes. */
public final class FileOptions {

    public static final ConfigOption<String> FILE_FORMAT =
            ConfigOptions.key("file.format")
                    .stringType()
                    .defaultValue("parquet")
                    .withDescription("Format of data files. Supported: parquet.");

    public static final ConfigOption<String> FILE_COMPRESSION =
            ConfigOptions.key("file.compression")
                    .stringType()
                    .defaultValue("zstd")
                    .withDescription("Compression of data files: zstd, lz4, gzip or none.");

    public static final ConfigOption<String> CHANGELOG_FILE_COMPRESSION =
            ConfigOptions.key("changelog-file.compression")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Compression of changelog and before-image files (of the 'input',"
                                    + " 'lookup' and 'full-compaction' producers): zstd, lz4,"
                                    + " gzip or none. Default: that of 'file.compression'.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
            ConfigOptions.key("target-file-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("128mb"))
                    .withDescription("A writer rolls to a new data file past this size.");

    public static final ConfigOption<MemorySize> PARQUET_ROW_GROUP_SIZE =
            ConfigOptions.key("parquet.block.size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("32mb"))
                    .withDescription("Target size of a Parquet row group (the unit of skipping).");

    /** These options with their scopes, in the order the README lists them. */
    static List<TableOption<?>> scoped() {
        return List.of(
                // Which format new files have is the table's choice; files written before keep
                // theirs.
                TableOption.byAlter(FILE_FORMAT),
                // Each file records its own codec and sizes.
                TableOption.perQuery(FILE_COMPRESSION),
                TableOption.perQuery(CHANGELOG_FILE_COMPRESSION),
                TableOption.perQuery(TARGET_FILE_SIZE),
                TableOption.perQuery(PARQUET_ROW_GROUP_SIZE));
    }

    private FileOptions() {}
}
