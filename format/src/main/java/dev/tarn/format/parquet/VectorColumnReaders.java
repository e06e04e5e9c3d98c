package dev.tarn.format.parquet;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapTimestampVector;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.io.api.Binary;

/**
 * The {@link VectorColumnReader} of each atomic type, storing values in Flink's heap vectors (and
 * three small vectors of its own for decimals and INT64 timestamps, which keep the raw Parquet
 * value and build the Flink value only when a row is read).
 */
final class VectorColumnReaders {

    private VectorColumnReaders() {}

    /** Whether every type in {@code types} has a vector reader (no nested types). */
    static boolean supports(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case ARRAY, MAP, MULTISET, ROW -> false;
            default -> true;
        };
    }

    static VectorColumnReader of(LogicalType type, int capacity) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                HeapBooleanVector booleans = new HeapBooleanVector(capacity);
                return new VectorColumnReader(booleans) {
                    @Override
                    public void addBoolean(boolean value) {
                        booleans.vector[row] = value;
                    }
                };
            case TINYINT:
                HeapByteVector bytes = new HeapByteVector(capacity);
                return new VectorColumnReader(bytes) {
                    @Override
                    public void addInt(int value) {
                        bytes.vector[row] = (byte) value;
                    }
                };
            case SMALLINT:
                HeapShortVector shorts = new HeapShortVector(capacity);
                return new VectorColumnReader(shorts) {
                    @Override
                    public void addInt(int value) {
                        shorts.vector[row] = (short) value;
                    }
                };
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ints(new HeapIntVector(capacity));
            case BIGINT:
                return longs(new HeapLongVector(capacity));
            case FLOAT:
                HeapFloatVector floats = new HeapFloatVector(capacity);
                return new VectorColumnReader(floats) {
                    @Override
                    public void addFloat(float value) {
                        floats.vector[row] = value;
                    }
                };
            case DOUBLE:
                HeapDoubleVector doubles = new HeapDoubleVector(capacity);
                return new VectorColumnReader(doubles) {
                    @Override
                    public void addDouble(double value) {
                        doubles.vector[row] = value;
                    }
                };
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return new BytesColumnReader(new HeapBytesVector(capacity));
            case DECIMAL:
                return decimal((DecimalType) type, capacity);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(LogicalTypeChecks.getPrecision(type), capacity);
            default:
                throw new UnsupportedOperationException(
                        "Cannot read column of type "
                                + type.asSummaryString()
                                + " into a vector: the type is not supported");
        }
    }

    private static VectorColumnReader ints(HeapIntVector ints) {
        return new VectorColumnReader(ints) {
            @Override
            public void addInt(int value) {
                ints.vector[row] = value;
            }
        };
    }

    private static VectorColumnReader longs(HeapLongVector longs) {
        return new VectorColumnReader(longs) {
            @Override
            public void addLong(long value) {
                longs.vector[row] = value;
            }
        };
    }

    private static VectorColumnReader decimal(DecimalType type, int capacity) {
        return switch (DecimalEncoding.of(type.getPrecision())) {
            case INT32 -> ints(new UnscaledIntDecimalVector(capacity));
            case INT64 -> longs(new UnscaledLongDecimalVector(capacity));
            case FIXED -> new BytesColumnReader(new UnscaledBytesDecimalVector(capacity));
        };
    }

    private static VectorColumnReader timestamp(int precision, int capacity) {
        TimestampEncoding encoding = TimestampEncoding.of(precision);
        if (encoding != TimestampEncoding.INT96) {
            return longs(new EpochTimestampVector(capacity, encoding));
        }
        HeapTimestampVector timestamps = new HeapTimestampVector(capacity);
        return new VectorColumnReader(timestamps) {
            @Override
            public void addBinary(Binary value) {
                timestamps.setTimestamp(row, TimestampEncoding.fromInt96(value.toByteBuffer()));
            }
        };
    }

    /** Unscaled INT32 decimals. */
    private static final class UnscaledIntDecimalVector extends HeapIntVector
            implements DecimalColumnVector {
        UnscaledIntDecimalVector(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledLong(getInt(i), precision, scale);
        }
    }

    /** Unscaled INT64 decimals. */
    private static final class UnscaledLongDecimalVector extends HeapLongVector
            implements DecimalColumnVector {
        UnscaledLongDecimalVector(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledLong(getLong(i), precision, scale);
        }
    }

    /** Big-endian two's complement unscaled decimals. */
    private static final class UnscaledBytesDecimalVector extends HeapBytesVector
            implements DecimalColumnVector {
        UnscaledBytesDecimalVector(int capacity) {
            super(capacity);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return DecimalData.fromUnscaledBytes(getBytes(i).getBytes(), precision, scale);
        }
    }

    /** INT64 timestamps in the unit of their encoding. */
    private static final class EpochTimestampVector extends HeapLongVector
            implements TimestampColumnVector {
        private final TimestampEncoding encoding;

        EpochTimestampVector(int capacity, TimestampEncoding encoding) {
            super(capacity);
            this.encoding = encoding;
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            return encoding.toFlinkTimestamp(getLong(i));
        }
    }
}
