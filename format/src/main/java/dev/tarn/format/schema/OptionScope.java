package dev.tarn.format.schema;

/**
 * Where a table option may take a new value. An option that shapes the data already written (how
 * rows are bucketed, how versions of a key merge) belongs to the table: one query using another
 * value would write or read the table as a different table. Each option's scope is assigned in
 * {@link TableOptions#scope}; {@link OptionChanges} enforces it for hints, path DDL and ALTER.
 */
public enum OptionScope {

    /** Scan, read and write tuning: may differ per query (a hint, or a path table's DDL). */
    QUERY("per query"),

    /**
     * A property of the whole table that existing files do not depend on (they keep what they were
     * written with): may change with {@code ALTER TABLE ... SET}, never per query.
     */
    ALTER("ALTER TABLE"),

    /**
     * Shapes the data itself (bucketing, merging): set by {@code CREATE TABLE}; {@code ALTER TABLE}
     * may change it only while the table has no snapshot; never per query.
     */
    CREATE("at creation");

    private final String label;

    OptionScope(String label) {
        this.label = label;
    }

    /** How the README's options tables name the scope. */
    public String label() {
        return label;
    }
}
