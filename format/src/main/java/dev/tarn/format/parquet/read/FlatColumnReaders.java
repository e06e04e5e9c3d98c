package dev.tarn.format.parquet.read;

import dev.tarn.format.parquet.schema.DecimalEncoding;
import dev.tarn.format.parquet.schema.TimestampEncoding;
import javax.annotation.Nullable;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapTimestampVector;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;

/**
 * The {@link FlatColumnReader} of each atomic type, filling Flink's heap vectors or the small
 * vectors of {@link RawVectors}. Each loop reads a definition level and, when the value is present,
 * the value; dictionary-encoded numbers are decoded by Parquet's dictionary reader.
 */
public final class FlatColumnReaders {

    private FlatColumnReaders() {}

    /** Whether {@code type} has a flat reader (every type but the nested ones). */
    public static boolean supports(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case ARRAY, MAP, MULTISET, ROW -> false;
            default -> true;
        };
    }

    static FlatColumnReader of(LogicalType type, ColumnDescriptor column, int capacity) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return booleans(column, new HeapBooleanVector(capacity));
            case TINYINT:
                return tinyInts(column, new HeapByteVector(capacity));
            case SMALLINT:
                return smallInts(column, new HeapShortVector(capacity));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ints(column, new HeapIntVector(capacity));
            case BIGINT:
                return longs(column, new HeapLongVector(capacity));
            case FLOAT:
                return floats(column, new HeapFloatVector(capacity));
            case DOUBLE:
                return doubles(column, new HeapDoubleVector(capacity));
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return new BytesColumnReader(column, new PageBytesVector(capacity));
            case DECIMAL:
                return switch (DecimalEncoding.of(((DecimalType) type).getPrecision())) {
                    case INT32 -> ints(column, new RawVectors.IntDecimals(capacity));
                    case INT64 -> longs(column, new RawVectors.LongDecimals(capacity));
                    case FIXED ->
                            new BytesColumnReader(column, new RawVectors.BytesDecimals(capacity));
                };
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampEncoding encoding =
                        TimestampEncoding.of(LogicalTypeChecks.getPrecision(type));
                return encoding == TimestampEncoding.INT96
                        ? int96(column, new HeapTimestampVector(capacity))
                        : longs(column, new RawVectors.EpochTimestamps(capacity, encoding));
            default:
                throw new UnsupportedOperationException(
                        "Cannot read a column of type "
                                + type.asSummaryString()
                                + " into a vector: the type is not supported");
        }
    }

    /** A reader whose dictionary, if any, is only used through Parquet's value readers. */
    private abstract static class Decoded extends FlatColumnReader {
        Decoded(ColumnDescriptor column, WritableColumnVector vector) {
            super(column, vector);
        }

        @Override
        void onDictionary(@Nullable Dictionary dictionary) {}
    }

    private static FlatColumnReader booleans(ColumnDescriptor column, HeapBooleanVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                if (allDefined() && values instanceof PlainValues plain) {
                    plain.readBooleans(out.vector, offset, count);
                    return;
                }
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = values.readBoolean();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader tinyInts(ColumnDescriptor column, HeapByteVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = (byte) values.readInteger();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader smallInts(ColumnDescriptor column, HeapShortVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = (short) values.readInteger();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader ints(ColumnDescriptor column, HeapIntVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                if (allDefined() && values instanceof BulkValues bulk) {
                    bulk.readInts(out.vector, offset, count);
                    return;
                }
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = values.readInteger();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader longs(ColumnDescriptor column, HeapLongVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                if (allDefined() && values instanceof BulkValues bulk) {
                    bulk.readLongs(out.vector, offset, count);
                    return;
                }
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = values.readLong();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader floats(ColumnDescriptor column, HeapFloatVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                if (allDefined() && values instanceof BulkValues bulk) {
                    bulk.readFloats(out.vector, offset, count);
                    return;
                }
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = values.readFloat();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader doubles(ColumnDescriptor column, HeapDoubleVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                if (allDefined() && values instanceof BulkValues bulk) {
                    bulk.readDoubles(out.vector, offset, count);
                    return;
                }
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.vector[i] = values.readDouble();
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }

    private static FlatColumnReader int96(ColumnDescriptor column, HeapTimestampVector out) {
        return new Decoded(column, out) {
            @Override
            void read(int offset, int count) {
                for (int i = offset, end = offset + count; i < end; i++) {
                    if (levels.readInteger() == maxDefinitionLevel) {
                        out.setTimestamp(
                                i, TimestampEncoding.fromInt96(values.readBytes().toByteBuffer()));
                    } else {
                        out.setNullAt(i);
                    }
                }
            }
        };
    }
}
