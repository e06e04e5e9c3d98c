package dev.tarn.format.parquet.write;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Pages of an INT32, INT64, FLOAT or DOUBLE column. Values are kept as their bit patterns (a float
 * or double by its canonical bits, as PLAIN encodes it; an INT32 sign-extended), dictionary-encoded
 * while the dictionary pays ({@link DictionaryColumnWriter}).
 *
 * <p>Min and max follow Parquet's order: signed for integers, {@link Double#compare} for floating
 * point (so -0.0 &lt; 0.0 and NaN is the largest).
 */
final class NumberColumnWriter extends DictionaryColumnWriter {

    private final int width;

    private boolean hasValue;
    private long minBits;
    private long maxBits;
    private double minDouble;
    private double maxDouble;

    NumberColumnWriter(
            ColumnDescriptor column, int pageSize, int pageValueLimit, boolean useDictionary) {
        super(
                column,
                pageSize,
                pageValueLimit,
                ValueDictionary.ofWidth(width(column)),
                useDictionary);
        this.width = width(column);
    }

    private static int width(ColumnDescriptor column) {
        PrimitiveTypeName physical = column.getPrimitiveType().getPrimitiveTypeName();
        return switch (physical) {
            case INT32, FLOAT -> Integer.BYTES;
            case INT64, DOUBLE -> Long.BYTES;
            default ->
                    throw new IllegalArgumentException(
                            "Column " + column + " is not a number column: " + physical);
        };
    }

    @Override
    public void addInteger(int value) {
        addLong(value);
    }

    @Override
    public void addLong(long value) {
        if (!hasValue) {
            hasValue = true;
            minBits = value;
            maxBits = value;
        } else if (value < minBits) {
            minBits = value;
        } else if (value > maxBits) {
            maxBits = value;
        }
        append(value);
    }

    @Override
    public void addFloat(float value) {
        track(value);
        append(Float.floatToIntBits(value));
    }

    @Override
    public void addDouble(double value) {
        track(value);
        append(Double.doubleToLongBits(value));
    }

    private void track(double value) {
        if (!hasValue) {
            hasValue = true;
            minDouble = value;
            maxDouble = value;
        } else if (Double.compare(value, minDouble) < 0) {
            minDouble = value;
        } else if (Double.compare(value, maxDouble) > 0) {
            maxDouble = value;
        }
    }

    private void append(long bits) {
        if (encodingIds) {
            appendId(dictionary.idOf(bits));
        } else {
            plain.putBits(bits, width);
        }
        valueAdded(pageBytes());
    }

    @Override
    void appendPlain(int id) {
        plain.putBits(dictionary.bits(id), width);
    }

    @Override
    long plainBytesOfIds(int idCount) {
        return (long) idCount * width;
    }

    @Override
    void addMinMax(Statistics<?> statistics) {
        switch (type.getPrimitiveTypeName()) {
            case INT32 -> {
                statistics.updateStats((int) minBits);
                statistics.updateStats((int) maxBits);
            }
            case INT64 -> {
                statistics.updateStats(minBits);
                statistics.updateStats(maxBits);
            }
            case FLOAT -> {
                statistics.updateStats((float) minDouble);
                statistics.updateStats((float) maxDouble);
            }
            default -> {
                statistics.updateStats(minDouble);
                statistics.updateStats(maxDouble);
            }
        }
    }

    @Override
    void resetPage() {
        super.resetPage();
        hasValue = false;
    }
}
