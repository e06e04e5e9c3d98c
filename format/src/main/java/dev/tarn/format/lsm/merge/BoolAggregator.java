package dev.tarn.format.lsm.merge;

import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Aggregate functions {@code bool_and} and {@code bool_or} over the non-null values of a BOOLEAN
 * field; null until a non-null value arrives. Cannot retract: an AND cannot be undone.
 */
final class BoolAggregator implements FieldAggregator {

    private final boolean and;
    private final String function;
    private final String field;
    private final ValueCell cell = new ValueCell();
    private boolean value;
    private boolean empty;

    private BoolAggregator(String function, String field) {
        this.and = function.equals("bool_and");
        this.function = function;
        this.field = field;
        reset();
    }

    static BoolAggregator create(String function, String field, LogicalType type) {
        if (type.getTypeRoot() != LogicalTypeRoot.BOOLEAN) {
            throw FieldAggregator.unsupportedType(function, field, type, "BOOLEAN");
        }
        return new BoolAggregator(function, field);
    }

    @Override
    public void reset() {
        value = and;
        empty = true;
    }

    @Override
    public void add(RowData row, int pos) {
        if (row.isNullAt(pos)) {
            return;
        }
        value = and ? value && row.getBoolean(pos) : value || row.getBoolean(pos);
        empty = false;
    }

    @Override
    public void retract(RowData row, int pos) {
        throw FieldAggregator.cannotRetract(function, field);
    }

    @Nullable
    @Override
    public RowData source() {
        if (empty) {
            return null;
        }
        cell.setBoolean(value);
        return cell;
    }
}
