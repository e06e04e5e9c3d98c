package dev.tarn.format.parquet.read;

import dev.tarn.format.parquet.schema.DecimalEncoding;
import dev.tarn.format.parquet.schema.TimestampEncoding;
import java.util.function.Consumer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * Parquet converters that turn values of atomic columns into Flink internal data, the inverse of
 * the write side's {@code AtomicWriters}, handing each value to a sink. Strings decode a dictionary
 * once per row group and share the decoded {@link StringData} between rows.
 */
final class AtomicConverters {

    private AtomicConverters() {}

    static PrimitiveConverter of(LogicalType type, Consumer<Object> sink) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new PrimitiveConverter() {
                    @Override
                    public void addBoolean(boolean value) {
                        sink.accept(value);
                    }
                };
            case TINYINT:
                return ints(v -> sink.accept((byte) v));
            case SMALLINT:
                return ints(v -> sink.accept((short) v));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ints(sink::accept);
            case BIGINT:
                return longs(sink::accept);
            case FLOAT:
                return new PrimitiveConverter() {
                    @Override
                    public void addFloat(float value) {
                        sink.accept(value);
                    }
                };
            case DOUBLE:
                return new PrimitiveConverter() {
                    @Override
                    public void addDouble(double value) {
                        sink.accept(value);
                    }
                };
            case CHAR:
            case VARCHAR:
                return new StringConverter(sink);
            case BINARY:
            case VARBINARY:
                return binaries(v -> sink.accept(v.getBytes()));
            case DECIMAL:
                return decimal((DecimalType) type, sink);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampEncoding encoding =
                        TimestampEncoding.of(LogicalTypeChecks.getPrecision(type));
                if (encoding == TimestampEncoding.INT96) {
                    return binaries(
                            v -> sink.accept(TimestampEncoding.fromInt96(v.toByteBuffer())));
                }
                return longs(v -> sink.accept(encoding.toFlinkTimestamp(v)));
            default:
                throw new UnsupportedOperationException(
                        "Cannot read values of type "
                                + type.asSummaryString()
                                + " from Parquet: the type is not supported");
        }
    }

    private static PrimitiveConverter decimal(DecimalType type, Consumer<Object> sink) {
        int p = type.getPrecision();
        int s = type.getScale();
        return switch (DecimalEncoding.of(p)) {
            case INT32 -> ints(v -> sink.accept(DecimalData.fromUnscaledLong(v, p, s)));
            case INT64 -> longs(v -> sink.accept(DecimalData.fromUnscaledLong(v, p, s)));
            case FIXED ->
                    binaries(v -> sink.accept(DecimalData.fromUnscaledBytes(v.getBytes(), p, s)));
        };
    }

    /** Receives an INT32 value unboxed. */
    private interface IntSink {
        void accept(int value);
    }

    /** Receives an INT64 value unboxed. */
    private interface LongSink {
        void accept(long value);
    }

    private static PrimitiveConverter ints(IntSink sink) {
        return new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
                sink.accept(value);
            }
        };
    }

    private static PrimitiveConverter longs(LongSink sink) {
        return new PrimitiveConverter() {
            @Override
            public void addLong(long value) {
                sink.accept(value);
            }
        };
    }

    private static PrimitiveConverter binaries(Consumer<Binary> sink) {
        return new PrimitiveConverter() {
            @Override
            public void addBinary(Binary value) {
                sink.accept(value);
            }
        };
    }

    /** Decodes strings, reading each dictionary entry once per row group. */
    private static final class StringConverter extends PrimitiveConverter {
        private final Consumer<Object> sink;
        private StringData[] dictionary;

        StringConverter(Consumer<Object> sink) {
            this.sink = sink;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary dictionary) {
            this.dictionary = new StringData[dictionary.getMaxId() + 1];
            for (int id = 0; id < this.dictionary.length; id++) {
                this.dictionary[id] =
                        StringData.fromBytes(dictionary.decodeToBinary(id).getBytes());
            }
        }

        @Override
        public void addValueFromDictionary(int dictionaryId) {
            sink.accept(dictionary[dictionaryId]);
        }

        @Override
        public void addBinary(Binary value) {
            sink.accept(StringData.fromBytes(value.getBytes()));
        }
    }
}
