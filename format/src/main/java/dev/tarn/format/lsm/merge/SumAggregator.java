package dev.tarn.format.lsm.merge;

import java.math.BigDecimal;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Aggregate function {@code sum}: adds non-null values, subtracts retracted ones; null until a
 * non-null value arrives. Integers sum in a long and wrap to the field's width as Java arithmetic
 * does; FLOAT and DOUBLE in a double; DECIMAL exactly, becoming null if the sum overflows the
 * field's precision (as Flink's decimal arithmetic does).
 */
final class SumAggregator implements FieldAggregator {

    private final LogicalTypeRoot root;
    private final int precision;
    private final int scale;
    private final ValueCell cell = new ValueCell();
    private long longSum;
    private double doubleSum;
    private BigDecimal decimalSum;
    private boolean empty;

    private SumAggregator(LogicalType type) {
        this.root = type.getTypeRoot();
        this.precision = root == LogicalTypeRoot.DECIMAL ? LogicalTypeChecks.getPrecision(type) : 0;
        this.scale = root == LogicalTypeRoot.DECIMAL ? LogicalTypeChecks.getScale(type) : 0;
        reset();
    }

    static SumAggregator create(String field, LogicalType type) {
        switch (type.getTypeRoot()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case DECIMAL:
                return new SumAggregator(type);
            default:
                throw FieldAggregator.unsupportedType(
                        "sum",
                        field,
                        type,
                        "TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE and" + " DECIMAL");
        }
    }

    @Override
    public void reset() {
        longSum = 0;
        doubleSum = 0;
        decimalSum = BigDecimal.ZERO;
        empty = true;
    }

    @Override
    public void add(RowData row, int pos) {
        accumulate(row, pos, 1);
    }

    @Override
    public void retract(RowData row, int pos) {
        accumulate(row, pos, -1);
    }

    private void accumulate(RowData row, int pos, int sign) {
        if (row.isNullAt(pos)) {
            return;
        }
        empty = false;
        switch (root) {
            case TINYINT:
                longSum += sign * row.getByte(pos);
                break;
            case SMALLINT:
                longSum += sign * row.getShort(pos);
                break;
            case INTEGER:
                longSum += sign * (long) row.getInt(pos);
                break;
            case BIGINT:
                longSum += sign * row.getLong(pos);
                break;
            case FLOAT:
                doubleSum += sign * row.getFloat(pos);
                break;
            case DOUBLE:
                doubleSum += sign * row.getDouble(pos);
                break;
            default:
                BigDecimal value = row.getDecimal(pos, precision, scale).toBigDecimal();
                decimalSum = sign > 0 ? decimalSum.add(value) : decimalSum.subtract(value);
        }
    }

    @Nullable
    @Override
    public RowData source() {
        if (empty) {
            return null;
        }
        switch (root) {
            case FLOAT:
            case DOUBLE:
                cell.setDouble(doubleSum);
                break;
            case DECIMAL:
                cell.setObject(DecimalData.fromBigDecimal(decimalSum, precision, scale));
                break;
            default:
                cell.setLong(longSum);
        }
        return cell;
    }
}
