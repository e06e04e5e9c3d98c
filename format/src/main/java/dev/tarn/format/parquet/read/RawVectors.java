package dev.tarn.format.parquet.read;

import dev.tarn.format.parquet.schema.TimestampEncoding;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;

/**
 * Column vectors that keep Parquet's raw value (an unscaled decimal, an INT64 timestamp) and build
 * the Flink value only when a row asks for it, so decoding a batch allocates nothing per value.
 */
final class RawVectors {

    private RawVectors() {}

    /**
     * A column every row of which is null: a column a file lacks, read through a schema that added
     * it. Filled once with nulls and never reset.
     */
    static final class Nulls
            extends org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector {
        Nulls(int capacity) {
            super(capacity);
        }
    }

    /** Unscaled INT32 decimals. */
    static final class IntDecimals extends HeapIntVector implements DecimalColumnVector {
        IntDecimals(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledLong(getInt(i), precision, scale);
        }
    }

    /** Unscaled INT64 decimals. */
    static final class LongDecimals extends HeapLongVector implements DecimalColumnVector {
        LongDecimals(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledLong(getLong(i), precision, scale);
        }
    }

    /** Big-endian two's complement unscaled decimals. */
    static final class BytesDecimals extends PageBytesVector implements DecimalColumnVector {
        BytesDecimals(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledBytes(getBytes(i).getBytes(), precision, scale);
        }
    }

    /** INT64 timestamps in the unit of their encoding. */
    static final class EpochTimestamps extends HeapLongVector implements TimestampColumnVector {
        private final TimestampEncoding encoding;

        EpochTimestamps(int capacity, TimestampEncoding encoding) {
            super(capacity);
            this.encoding = encoding;
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            return encoding.toFlinkTimestamp(getLong(i));
        }
    }
}
