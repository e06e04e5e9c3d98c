package dev.tarn.format.schema;

/**
 * The two kinds of table, which write, read and commit differently. Chosen once from the schema;
 * each seam picks its implementation for the kind instead of testing for a primary key.
 */
public enum TableKind {
    /** No primary key: rows are only inserted, and every file's rows are all live. */
    APPEND,
    /**
     * A primary key: each bucket is an LSM tree of changes, merged on read by the table's merge
     * engine into one row per key.
     */
    PRIMARY_KEY;

    public static TableKind of(TableSchema schema) {
        return schema.primaryKeys().isEmpty() ? APPEND : PRIMARY_KEY;
    }

    /** Whether the table takes updates and deletes, not only inserts. */
    public boolean takesChanges() {
        return this == PRIMARY_KEY;
    }
}
