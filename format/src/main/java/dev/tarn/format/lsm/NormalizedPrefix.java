package dev.tarn.format.lsm;

import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * A long taken from the first key field of a binary row whose signed order agrees with the key
 * order: {@code prefix(a) < prefix(b)} implies {@code key(a) < key(b)}. Sorting compares prefixes
 * first and only falls back to the full {@link KeyComparator} on equal prefixes; when the prefix
 * captures the whole key (one fixed-length key field) it {@link #decides()} alone.
 */
final class NormalizedPrefix {

    @FunctionalInterface
    private interface Extractor {
        long of(BinaryRowData row);
    }

    private final Extractor extractor;
    private final boolean decides;

    private NormalizedPrefix(Extractor extractor, boolean wholeField, int keyFields) {
        this.extractor = extractor;
        this.decides = wholeField && keyFields == 1;
    }

    static NormalizedPrefix of(RowType rowType, int[] keyIndexes) {
        int pos = keyIndexes[0];
        int n = keyIndexes.length;
        LogicalType type = rowType.getTypeAt(pos);
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new NormalizedPrefix(row -> row.getBoolean(pos) ? 1 : 0, true, n);
            case TINYINT:
                return new NormalizedPrefix(row -> row.getByte(pos), true, n);
            case SMALLINT:
                return new NormalizedPrefix(row -> row.getShort(pos), true, n);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return new NormalizedPrefix(row -> row.getInt(pos), true, n);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return new NormalizedPrefix(row -> row.getLong(pos), true, n);
            case FLOAT:
                return new NormalizedPrefix(row -> floatPrefix(row.getFloat(pos)), true, n);
            case DOUBLE:
                return new NormalizedPrefix(row -> doublePrefix(row.getDouble(pos)), true, n);
            case DECIMAL:
                if (LogicalTypeChecks.getPrecision(type) <= 18) {
                    // The unscaled long of a fixed scale orders as the decimal does.
                    return new NormalizedPrefix(row -> row.getLong(pos), true, n);
                }
                return new NormalizedPrefix(row -> 0L, false, n);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (LogicalTypeChecks.getPrecision(type) <= 3) {
                    return new NormalizedPrefix(row -> row.getLong(pos), true, n);
                }
                // The slot holds (offset of the milliseconds << 32 | nanos of millisecond).
                return new NormalizedPrefix(
                        row ->
                                BinarySegmentUtils.getLong(
                                        row.getSegments(),
                                        row.getOffset() + (int) (row.getLong(pos) >> 32)),
                        false,
                        n);
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return new NormalizedPrefix(row -> VarLengthFields.prefix(row, pos), false, n);
            default:
                return new NormalizedPrefix(row -> 0L, false, n);
        }
    }

    long of(BinaryRowData row) {
        return extractor.of(row);
    }

    boolean decides() {
        return decides;
    }

    /** Maps float bits so that signed order is {@link Float#compare} order (NaN last). */
    static long floatPrefix(float value) {
        int bits = Float.floatToIntBits(value);
        return bits ^ ((bits >> 31) & 0x7FFFFFFF);
    }

    /** Maps double bits so that signed order is {@link Double#compare} order (NaN last). */
    static long doublePrefix(double value) {
        long bits = Double.doubleToLongBits(value);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }
}
