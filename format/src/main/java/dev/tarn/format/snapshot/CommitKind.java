package dev.tarn.format.snapshot;

/** What a snapshot changed. */
public enum CommitKind {
    /** New data files were added. */
    APPEND,
    /** Files were rewritten without changing any row. */
    COMPACT,
    /** Files of some partitions (or all) were replaced. */
    OVERWRITE
}
