package dev.tarn.benchmarks;

import java.util.List;

/**
 * The row-group and file sizes the benchmark's tables are created with. By default both systems get
 * the same ones, Paimon's defaults: 128 MB row groups ('parquet.block.size', a key both systems
 * hand to their Parquet writer) and a 'target-file-size' of 256 MB for append tables and 128 MB for
 * primary-key tables. With {@code --defaults} each system keeps its own (Tarn's are 32 MB row
 * groups and 128 MB files for both kinds of table).
 *
 * @param defaults whether the tables are created without size options
 */
record TableSizes(boolean defaults) {

    /**
     * In bytes: Paimon passes the value to Parquet's Hadoop configuration, which wants a number.
     */
    private static final String ROW_GROUP = "'parquet.block.size' = '" + (128L << 20) + "'";

    List<String> appendOptions() {
        return defaults ? List.of() : List.of(ROW_GROUP, "'target-file-size' = '256mb'");
    }

    List<String> primaryKeyOptions() {
        return defaults ? List.of() : List.of(ROW_GROUP, "'target-file-size' = '128mb'");
    }

    /** A WITH clause of these options, or nothing without any. */
    static String with(List<String> options) {
        return options.isEmpty() ? "" : " WITH (" + String.join(", ", options) + ")";
    }

    /** For the report's heading. */
    String describe() {
        return defaults
                ? "each system with its own row-group and file sizes"
                : "128 MB row groups and 256 MB (append) or 128 MB (primary key) files on both"
                        + " systems";
    }
}
