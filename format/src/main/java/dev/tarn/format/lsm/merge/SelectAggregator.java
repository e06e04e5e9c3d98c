package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyComparator;
import java.util.Locale;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Aggregate functions that pick one of the versions' values rather than compute one: {@code min},
 * {@code max}, {@code first_value}, {@code first_non_null_value}, {@code last_value} and {@code
 * last_non_null_value}. The pick is the row holding the value, kept by reference. Min and max
 * ignore nulls and order as keys do ({@link KeyComparator}). Only {@code last_value} (which becomes
 * null) and {@code last_non_null_value} (null if a non-null value is retracted) can retract.
 */
final class SelectAggregator implements FieldAggregator {

    private enum Mode {
        MIN,
        MAX,
        FIRST_VALUE,
        FIRST_NON_NULL_VALUE,
        LAST_VALUE,
        LAST_NON_NULL_VALUE
    }

    private final Mode mode;
    private final String function;
    private final String field;
    @Nullable private final KeyComparator order;
    @Nullable private RowData picked;
    private boolean seen;

    private SelectAggregator(String function, String field, @Nullable KeyComparator order) {
        this.mode = Mode.valueOf(function.toUpperCase(Locale.ROOT));
        this.function = function;
        this.field = field;
        this.order = order;
    }

    static SelectAggregator create(String function, RowType rowType, int pos) {
        String field = rowType.getFieldNames().get(pos);
        KeyComparator order = null;
        if (function.equals("min") || function.equals("max")) {
            try {
                order = new KeyComparator(rowType, new int[] {pos});
            } catch (IllegalArgumentException e) {
                throw FieldAggregator.unsupportedType(
                        function,
                        field,
                        rowType.getTypeAt(pos),
                        "BOOLEAN, numeric, DECIMAL,"
                                + " CHAR, VARCHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP and"
                                + " TIMESTAMP_LTZ");
            }
        }
        return new SelectAggregator(function, field, order);
    }

    @Override
    public void reset() {
        picked = null;
        seen = false;
    }

    @Override
    public void add(RowData row, int pos) {
        boolean isNull = row.isNullAt(pos);
        switch (mode) {
            case MIN:
                if (!isNull && (picked == null || order.compare(row, picked) < 0)) {
                    picked = row;
                }
                break;
            case MAX:
                if (!isNull && (picked == null || order.compare(row, picked) > 0)) {
                    picked = row;
                }
                break;
            case FIRST_VALUE:
                if (!seen) {
                    picked = row;
                }
                break;
            case FIRST_NON_NULL_VALUE:
                if (picked == null && !isNull) {
                    picked = row;
                }
                break;
            case LAST_VALUE:
                picked = row;
                break;
            default: // last_non_null_value
                if (!isNull) {
                    picked = row;
                }
        }
        seen = true;
    }

    @Override
    public void retract(RowData row, int pos) {
        if (mode == Mode.LAST_VALUE) {
            picked = null;
        } else if (mode == Mode.LAST_NON_NULL_VALUE) {
            if (!row.isNullAt(pos)) {
                picked = null;
            }
        } else {
            throw FieldAggregator.cannotRetract(function, field);
        }
    }

    @Nullable
    @Override
    public RowData source() {
        return picked;
    }
}
