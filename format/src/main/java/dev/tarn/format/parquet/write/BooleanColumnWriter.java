package dev.tarn.format.parquet.write;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;

/** Pages of a BOOLEAN column: PLAIN, one bit per value, the first value in the lowest bit. */
final class BooleanColumnWriter extends ColumnChunkWriter {

    private int bits;
    private int bitCount;
    private boolean sawFalse;
    private boolean sawTrue;

    BooleanColumnWriter(ColumnDescriptor column, int pageSize, int pageValueLimit) {
        super(column, pageSize, pageValueLimit);
    }

    @Override
    public void addBoolean(boolean value) {
        if (value) {
            bits |= 1 << bitCount;
            sawTrue = true;
        } else {
            sawFalse = true;
        }
        if (++bitCount == Byte.SIZE) {
            plain.putByte(bits);
            bits = 0;
            bitCount = 0;
        }
        valueAdded(plainSize());
    }

    @Override
    void startChunk() {}

    @Override
    int pageBytes() {
        return plainSize();
    }

    @Override
    BytesInput pageValues() {
        if (bitCount > 0) {
            plain.putByte(bits);
        }
        return null;
    }

    @Override
    Encoding pageEncoding() {
        return Encoding.PLAIN;
    }

    @Override
    void addMinMax(Statistics<?> statistics) {
        statistics.updateStats(!sawFalse);
        statistics.updateStats(sawTrue);
    }

    @Override
    void resetPage() {
        bits = 0;
        bitCount = 0;
        sawFalse = false;
        sawTrue = false;
    }

    @Override
    DictionaryPage dictionaryPage() {
        throw new IllegalStateException("Boolean column " + column + " has no dictionary");
    }

    @Override
    void endChunk() {}
}
