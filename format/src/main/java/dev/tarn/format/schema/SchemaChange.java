package dev.tarn.format.schema;

import dev.tarn.format.schema.TableSchema.ComputedColumn;
import dev.tarn.format.schema.TableSchema.WatermarkSpec;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * One change to a table's schema (what one clause of {@code ALTER TABLE} asks): an option, the
 * comment, the watermark, the computed columns, or a column, by name in the schema the changes
 * before it produced. Applied in order, a list of changes becomes the next schema version ({@code
 * Table.alter}): a column keeps its field id through renames, moves and widenings, and a new column
 * takes an id never used in the table before (SPEC.md, "Schema files"). Changes that would make
 * stored data unreadable, or that the format cannot honour yet, are refused with a message naming
 * the column or option and the reason ({@link SchemaRules}); keys and partitioning never change.
 */
public sealed interface SchemaChange {

    /** Sets a table option ({@code ALTER TABLE ... SET}), where its scope allows it. */
    record SetOption(String key, String value) implements SchemaChange {
        public SetOption {
            Objects.requireNonNull(key, "option key");
            Objects.requireNonNull(value, "value of option " + key);
        }
    }

    /**
     * Removes a table option, which then reads as its default ({@code ALTER TABLE ... RESET}); one
     * the table does not set stays unset.
     */
    record RemoveOption(String key) implements SchemaChange {
        public RemoveOption {
            Objects.requireNonNull(key, "option key");
        }
    }

    /** The table's comment; null (or empty) removes it. */
    record UpdateComment(@Nullable String comment) implements SchemaChange {
        public UpdateComment {
            comment = comment == null || comment.isEmpty() ? null : comment;
        }
    }

    /** Declares the table's watermark, replacing the one it has ({@code ADD/MODIFY WATERMARK}). */
    record SetWatermark(WatermarkSpec watermark) implements SchemaChange {
        public SetWatermark {
            Objects.requireNonNull(watermark, "watermark");
        }
    }

    /** Removes the table's watermark declaration, if it has one ({@code DROP WATERMARK}). */
    record DropWatermark() implements SchemaChange {}

    /**
     * The table's computed columns, all of them: declarations the engine evaluates, which no file
     * holds, so they are replaced whole.
     */
    record SetComputedColumns(List<ComputedColumn> columns) implements SchemaChange {
        public SetComputedColumns {
            columns = List.copyOf(columns);
        }
    }

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
     * The schema after {@code changes}, numbered {@code schema.id() + 1}, checked change by change
     * (not yet as a whole, nor against the table's data: {@code Table.alter} does that).
     *
     * @throws IllegalArgumentException naming the table, the column or option and the reason, for a
     *     change that is not allowed
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
