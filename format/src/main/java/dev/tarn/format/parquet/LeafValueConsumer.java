package dev.tarn.format.parquet;

import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * The values of one top-level OPTIONAL primitive column, handed straight to its {@link
 * ColumnWriter} as non-null values of a new record (repetition level 0, definition level 1). It
 * lets {@link FlatRowWriter} reuse the encodings of {@link AtomicWriters} without Parquet's record
 * assembly; it knows no fields, groups or messages.
 */
final class LeafValueConsumer extends RecordConsumer {

    /** A present value of a top-level OPTIONAL column. */
    private static final int DEFINED = 1;

    private final ColumnWriter column;

    LeafValueConsumer(ColumnWriter column) {
        this.column = column;
    }

    @Override
    public void addInteger(int value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void addLong(long value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void addBoolean(boolean value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void addBinary(Binary value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void addFloat(float value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void addDouble(double value) {
        column.write(value, 0, DEFINED);
    }

    @Override
    public void startMessage() {
        throw notAColumn("startMessage");
    }

    @Override
    public void endMessage() {
        throw notAColumn("endMessage");
    }

    @Override
    public void startField(String field, int index) {
        throw notAColumn("startField");
    }

    @Override
    public void endField(String field, int index) {
        throw notAColumn("endField");
    }

    @Override
    public void startGroup() {
        throw notAColumn("startGroup");
    }

    @Override
    public void endGroup() {
        throw notAColumn("endGroup");
    }

    private static UnsupportedOperationException notAColumn(String call) {
        return new UnsupportedOperationException(
                "Cannot call "
                        + call
                        + " on the values of a primitive column: it has no structure");
    }
}
