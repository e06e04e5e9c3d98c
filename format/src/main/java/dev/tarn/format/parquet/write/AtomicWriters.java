package dev.tarn.format.parquet.write;

import dev.tarn.format.parquet.schema.DecimalEncoding;
import dev.tarn.format.parquet.schema.ParquetSchemas;
import dev.tarn.format.parquet.schema.TimestampEncoding;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * {@link FieldWriter}s of atomic types, encoded as {@link ParquetSchemas} declares. Byte values are
 * handed to Parquet as "reused" binaries, so Parquet copies what it keeps (dictionary entries,
 * statistics) and the caller may reuse its row after {@code write} returns.
 */
final class AtomicWriters {

    private AtomicWriters() {}

    /**
     * A writer of atomic values: a class, so that a row writer's call through an array of them (one
     * implementation per column type) is a virtual call, not an interface one.
     */
    abstract static class Atomic implements FieldWriter {}

    static Atomic of(LogicalType type, RecordConsumer c) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addBoolean(row.getBoolean(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addBoolean(array.getBoolean(pos));
                    }
                };
            case TINYINT:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addInteger(row.getByte(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addInteger(array.getByte(pos));
                    }
                };
            case SMALLINT:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addInteger(row.getShort(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addInteger(array.getShort(pos));
                    }
                };
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addInteger(row.getInt(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addInteger(array.getInt(pos));
                    }
                };
            case BIGINT:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addLong(row.getLong(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addLong(array.getLong(pos));
                    }
                };
            case FLOAT:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addFloat(row.getFloat(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addFloat(array.getFloat(pos));
                    }
                };
            case DOUBLE:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addDouble(row.getDouble(pos));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addDouble(array.getDouble(pos));
                    }
                };
            case CHAR:
            case VARCHAR:
                if (c instanceof BinaryColumnWriter column) {
                    return strings(column);
                }
                return new Atomic() {
                    private final Utf8 utf8 = new Utf8();

                    @Override
                    public void write(RowData row, int pos) {
                        c.addBinary(utf8.of(row.getString(pos)).binary());
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addBinary(utf8.of(array.getString(pos)).binary());
                    }
                };
            case BINARY:
            case VARBINARY:
                return new Atomic() {
                    @Override
                    public void write(RowData row, int pos) {
                        c.addBinary(Binary.fromReusedByteArray(row.getBinary(pos)));
                    }

                    @Override
                    public void write(ArrayData array, int pos) {
                        c.addBinary(Binary.fromReusedByteArray(array.getBinary(pos)));
                    }
                };
            case DECIMAL:
                return decimal((DecimalType) type, c);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(LogicalTypeChecks.getPrecision(type), c);
            default:
                throw new UnsupportedOperationException(
                        "Cannot write values of type "
                                + type.asSummaryString()
                                + " to Parquet: the type is not supported");
        }
    }

    /** Strings straight into a column's page encoder: no {@link Binary} per value. */
    private static Atomic strings(BinaryColumnWriter column) {
        return new Atomic() {
            private final Utf8 utf8 = new Utf8();

            @Override
            public void write(RowData row, int pos) {
                add(utf8.of(row.getString(pos)));
            }

            @Override
            public void write(ArrayData array, int pos) {
                add(utf8.of(array.getString(pos)));
            }

            private void add(Utf8 bytes) {
                column.add(bytes.array, bytes.offset, bytes.length);
            }
        };
    }

    /**
     * Where the UTF-8 bytes of a string are: in place when they sit in one heap segment, else in a
     * fresh array. A string made from a Java string and never encoded is encoded by the JDK,
     * several times faster than Flink's char-by-char encoder (a plain copy, for ASCII). One per
     * writer, reused for every value.
     */
    private static final class Utf8 {
        byte[] array;
        int offset;
        int length;

        Utf8 of(StringData s) {
            if (s instanceof BinaryStringData b) {
                if (b.getBinarySection() == null && b.getJavaObject() != null) {
                    return at(b.getJavaObject().getBytes(StandardCharsets.UTF_8));
                }
                b.ensureMaterialized();
                MemorySegment[] segments = b.getSegments();
                if (segments.length == 1 && !segments[0].isOffHeap()) {
                    array = segments[0].getArray();
                    offset = b.getOffset();
                    length = b.getSizeInBytes();
                    return this;
                }
            }
            return at(s.toBytes());
        }

        private Utf8 at(byte[] bytes) {
            array = bytes;
            offset = 0;
            length = bytes.length;
            return this;
        }

        /** A binary Parquet may not keep: it copies what it keeps. */
        Binary binary() {
            return Binary.fromReusedByteArray(array, offset, length);
        }
    }

    private static Atomic decimal(DecimalType type, RecordConsumer c) {
        int p = type.getPrecision();
        int s = type.getScale();
        DecimalEncoding encoding = DecimalEncoding.of(p);
        int length = DecimalEncoding.fixedLength(p);
        return new Atomic() {
            @Override
            public void write(RowData row, int pos) {
                add(row.getDecimal(pos, p, s));
            }

            @Override
            public void write(ArrayData array, int pos) {
                add(array.getDecimal(pos, p, s));
            }

            private void add(DecimalData d) {
                switch (encoding) {
                    case INT32 -> c.addInteger((int) d.toUnscaledLong());
                    case INT64 -> c.addLong(d.toUnscaledLong());
                    case FIXED ->
                            c.addBinary(
                                    Binary.fromReusedByteArray(DecimalEncoding.toFixed(d, length)));
                }
            }
        };
    }

    private static Atomic timestamp(int precision, RecordConsumer c) {
        TimestampEncoding encoding = TimestampEncoding.of(precision);
        byte[] int96 = new byte[TimestampEncoding.int96Bytes()];
        return new Atomic() {
            @Override
            public void write(RowData row, int pos) {
                add(row.getTimestamp(pos, precision));
            }

            @Override
            public void write(ArrayData array, int pos) {
                add(array.getTimestamp(pos, precision));
            }

            private void add(TimestampData ts) {
                if (encoding == TimestampEncoding.INT96) {
                    c.addBinary(Binary.fromReusedByteArray(TimestampEncoding.toInt96(ts, int96)));
                } else {
                    c.addLong(encoding.toLong(ts));
                }
            }
        };
    }
}
