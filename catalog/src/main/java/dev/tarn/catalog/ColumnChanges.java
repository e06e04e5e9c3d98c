package dev.tarn.catalog;

import dev.tarn.format.schema.SchemaChange;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;

/**
 * Flink's column {@link TableChange}s as the format's {@link SchemaChange}s. Only physical columns
 * are stored, so computed and metadata columns are refused here, naming the column.
 */
final class ColumnChanges {

    private ColumnChanges() {}

    /**
     * Whether {@code change} adds, drops or changes a computed column (one of {@code computed}, the
     * table's, or a new one): those are declarations, which the requested table holds whole.
     */
    static boolean ofComputed(TableChange change, Set<String> computed) {
        if (change instanceof TableChange.AddColumn add) {
            return add.getColumn() instanceof Column.ComputedColumn;
        }
        if (change instanceof TableChange.DropColumn drop) {
            return computed.contains(drop.getColumnName());
        }
        if (change instanceof TableChange.ModifyColumn modify) {
            return computed.contains(modify.getOldColumn().getName())
                    && modify.getNewColumn() instanceof Column.ComputedColumn;
        }
        return false;
    }

    /** The format's change for {@code change}, or null if it does not change a column. */
    @Nullable
    static SchemaChange of(String table, TableChange change) {
        if (change instanceof TableChange.AddColumn add) {
            Column column = physical(table, add.getColumn());
            return new SchemaChange.AddColumn(
                    column.getName(),
                    column.getDataType().getLogicalType(),
                    column.getComment().orElse(null),
                    add.getPosition() == null ? null : position(add.getPosition()));
        }
        if (change instanceof TableChange.DropColumn drop) {
            return new SchemaChange.DropColumn(drop.getColumnName());
        }
        if (change instanceof TableChange.ModifyColumnName rename) {
            return new SchemaChange.RenameColumn(
                    rename.getOldColumnName(), rename.getNewColumnName());
        }
        if (change instanceof TableChange.ModifyColumnPosition move) {
            return new SchemaChange.MoveColumn(
                    move.getOldColumn().getName(), position(move.getNewPosition()));
        }
        if (change instanceof TableChange.ModifyPhysicalColumnType type) {
            return new SchemaChange.UpdateColumnType(
                    type.getOldColumn().getName(), type.getNewType().getLogicalType());
        }
        if (change instanceof TableChange.ModifyColumnComment comment) {
            return new SchemaChange.UpdateColumnComment(
                    comment.getOldColumn().getName(), comment.getNewComment());
        }
        if (change instanceof TableChange.ModifyColumn modify) {
            physical(table, modify.getNewColumn());
            throw new CatalogException(
                    String.format(
                            "Cannot alter table %s: %s is not supported; change a column's name,"
                                    + " position, type or comment one at a time",
                            table, change));
        }
        return null;
    }

    private static Column physical(String table, Column column) {
        if (!column.isPhysical()) {
            throw new CatalogException(
                    String.format(
                            "Cannot alter table %s: column %s is %s; only physical columns are"
                                    + " supported",
                            table, column.getName(), column.asSummaryString()));
        }
        return column;
    }

    private static SchemaChange.Position position(TableChange.ColumnPosition position) {
        if (position instanceof TableChange.After after) {
            return SchemaChange.Position.after(after.column());
        }
        return SchemaChange.Position.FIRST;
    }
}
