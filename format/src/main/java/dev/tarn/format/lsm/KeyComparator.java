package dev.tarn.format.lsm;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Orders full table rows by their primary-key fields, field by field in key order. Each field has a
 * comparator chosen once from its type, so a comparison neither boxes nor allocates for flat types
 * (compact DECIMAL and TIMESTAMP of binary rows included; wider ones compare their value objects).
 * Strings and binaries order by unsigned bytes (UTF-8 order for strings), floating point as {@link
 * Double#compare}. REQUIRES: key fields are never null (primary keys are NOT NULL). Thread-safe: it
 * holds no mutable state.
 */
public final class KeyComparator {

    /** Compares one field of two rows. */
    @FunctionalInterface
    private interface FieldComparator {
        int compare(RowData a, RowData b);
    }

    private final RowType rowType;
    private final int[] keyIndexes;
    private final FieldComparator[] comparators;
    private final NormalizedPrefix prefix;

    public KeyComparator(RowType rowType, int[] keyIndexes) {
        if (keyIndexes.length == 0) {
            throw new IllegalArgumentException(
                    "Cannot compare rows of " + rowType + " by an empty primary key");
        }
        this.rowType = rowType;
        this.keyIndexes = keyIndexes.clone();
        this.comparators = new FieldComparator[keyIndexes.length];
        for (int i = 0; i < keyIndexes.length; i++) {
            int pos = keyIndexes[i];
            if (pos < 0 || pos >= rowType.getFieldCount()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Key field index %d is outside the %d fields of %s",
                                pos, rowType.getFieldCount(), rowType));
            }
            comparators[i] = comparator(rowType, pos);
        }
        this.prefix = NormalizedPrefix.of(rowType, this.keyIndexes);
    }

    /** Negative, zero or positive as the key of {@code a} orders before, as, or after {@code b}. */
    public int compare(RowData a, RowData b) {
        for (FieldComparator comparator : comparators) {
            int c = comparator.compare(a, b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    public RowType rowType() {
        return rowType;
    }

    public int[] keyIndexes() {
        return keyIndexes.clone();
    }

    /** A signed-comparable prefix of the key: prefixes order as keys do, ties undecided. */
    public long prefix(BinaryRowData row) {
        return prefix.of(row);
    }

    /** True when equal prefixes imply equal keys, so a full comparison is never needed. */
    public boolean prefixDecides() {
        return prefix.decides();
    }

    /** The key values of a row, for error messages: {@code [7, x]}. */
    public String describe(RowData row) {
        List<Object> values = new ArrayList<>(keyIndexes.length);
        for (int pos : keyIndexes) {
            values.add(RowData.createFieldGetter(rowType.getTypeAt(pos), pos).getFieldOrNull(row));
        }
        return values.toString();
    }

    private static FieldComparator comparator(RowType rowType, int pos) {
        LogicalType type = rowType.getTypeAt(pos);
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (a, b) -> Boolean.compare(a.getBoolean(pos), b.getBoolean(pos));
            case TINYINT:
                return (a, b) -> Byte.compare(a.getByte(pos), b.getByte(pos));
            case SMALLINT:
                return (a, b) -> Short.compare(a.getShort(pos), b.getShort(pos));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return (a, b) -> Integer.compare(a.getInt(pos), b.getInt(pos));
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (a, b) -> Long.compare(a.getLong(pos), b.getLong(pos));
            case FLOAT:
                return (a, b) -> Float.compare(a.getFloat(pos), b.getFloat(pos));
            case DOUBLE:
                return (a, b) -> Double.compare(a.getDouble(pos), b.getDouble(pos));
            case CHAR:
            case VARCHAR:
                return (a, b) -> VarLengthFields.compare(a, b, pos, true);
            case BINARY:
            case VARBINARY:
                return (a, b) -> VarLengthFields.compare(a, b, pos, false);
            case DECIMAL:
                return decimalComparator(pos, type);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestampComparator(pos, LogicalTypeChecks.getPrecision(type));
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Key field '%s' has type %s, which keys cannot be ordered by;"
                                        + " supported are BOOLEAN, numeric, DECIMAL, CHAR,"
                                        + " VARCHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP and"
                                        + " TIMESTAMP_LTZ",
                                rowType.getFieldNames().get(pos), type));
        }
    }

    private static FieldComparator decimalComparator(int pos, LogicalType type) {
        int precision = LogicalTypeChecks.getPrecision(type);
        int scale = LogicalTypeChecks.getScale(type);
        boolean compact = precision <= 18;
        return (a, b) -> {
            if (compact && a instanceof BinaryRowData && b instanceof BinaryRowData) {
                // Both hold the unscaled value of the same scale in the fixed slot.
                return Long.compare(a.getLong(pos), b.getLong(pos));
            }
            return a.getDecimal(pos, precision, scale)
                    .compareTo(b.getDecimal(pos, precision, scale));
        };
    }

    private static FieldComparator timestampComparator(int pos, int precision) {
        boolean compact = precision <= 3;
        return (a, b) -> {
            if (compact && a instanceof BinaryRowData && b instanceof BinaryRowData) {
                // Both hold epoch milliseconds in the fixed slot.
                return Long.compare(a.getLong(pos), b.getLong(pos));
            }
            return a.getTimestamp(pos, precision).compareTo(b.getTimestamp(pos, precision));
        };
    }
}
