package dev.tarn.format.schema;

import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * One change to a table's columns, by name in the schema the changes before it produced. Applied in
 * order by {@link #apply}, a list of changes becomes the next schema version: a column keeps its
 * field id through renames, moves and widenings, and a new column takes an id never used in the
 * table before (SPEC.md, "Schema files"). Changes that would make stored data unreadable, or that
 * the format cannot honour yet, are refused with a message naming the column and the reason.
 */
public sealed interface SchemaChange {

    /** Where a column goes: first, or after a named column; null position: last. */
    record Position(@Nullable String after) {
        public static final Position FIRST = new Position(null);

        public static Position after(String column) {
            return new Position(column);
        }
    }

    /**
     * A new column; {@code position} null puts it last. Rows of files written before read as {@code
     * defaultValue} (stored as the option {@code fields.<name>.default-value}; null: the option the
     * table may already have, else null). A NOT NULL column needs a default.
     */
    record AddColumn(
            String name,
            LogicalType type,
            @Nullable String comment,
            @Nullable Position position,
            @Nullable String defaultValue)
            implements SchemaChange {

        /** A column without a default of its own. */
        public AddColumn(
                String name,
                LogicalType type,
                @Nullable String comment,
                @Nullable Position position) {
            this(name, type, comment, position, null);
        }
    }

    record DropColumn(String name) implements SchemaChange {}

    record RenameColumn(String name, String newName) implements SchemaChange {}

    record MoveColumn(String name, Position position) implements SchemaChange {}

    /** A widening of the column's type, or a change of NOT NULL to nullable. */
    record UpdateColumnType(String name, LogicalType newType) implements SchemaChange {}

    record UpdateColumnComment(String name, @Nullable String comment) implements SchemaChange {}

    /**
     * The schema after {@code changes}, numbered {@code schema.id() + 1}, with the same options,
     * comment and watermark.
     *
     * @throws IllegalArgumentException naming the table, the column, its old and new type and the
     *     reason, for a change that is not allowed
     */
    static TableSchema apply(String table, TableSchema schema, List<SchemaChange> changes) {
        return new SchemaEvolution(table, schema).apply(changes);
    }

    /** Whether {@code key} is a column default, {@code fields.<column>.default-value}. */
    static boolean isColumnDefault(String key) {
        return ColumnDefaults.isDefaultKey(key);
    }

    /**
     * Checks the column defaults of {@code next}, a table's schema (after {@code current}, or the
     * first): each reads as its column's type, and a NOT NULL column keeps the default it has.
     *
     * @throws IllegalArgumentException naming the column, its type, the value and the reason
     */
    static void checkDefaults(String table, @Nullable TableSchema current, TableSchema next) {
        ColumnDefaults.validate(table, next);
        if (current != null) {
            ColumnDefaults.checkKept(table, current, next);
        }
    }
}
