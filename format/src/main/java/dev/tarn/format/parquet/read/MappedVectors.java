package dev.tarn.format.parquet.read;

import java.math.BigInteger;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The vectors of a batch decoded from a file of an older schema version, as vectors of the reading
 * schema ({@link ColumnMapping}): a column of the same type is the decoded vector itself, a widened
 * one is converted once per batch in one loop over the column, and a column the file lacks is a
 * constant vector (all null, or its default) filled once. Converting per column keeps the batch
 * columnar, so it is still transferred to binary rows column by column.
 */
public final class MappedVectors {

    /** Per batch, converts the decoded rows of one column into its output vector. */
    @FunctionalInterface
    private interface Conversion {
        void convert(int rows);
    }

    private final ColumnVector[] vectors;
    private final BytesColumnReader[] strings;
    private final Conversion[] conversions;

    private MappedVectors(
            ColumnVector[] vectors, BytesColumnReader[] strings, Conversion[] conversions) {
        this.vectors = vectors;
        this.strings = strings;
        this.conversions = conversions;
    }

    /**
     * Whether every column of {@code columns} maps by vectors (else rows are mapped one by one).
     */
    public static boolean supports(ColumnMapping columns) {
        for (int i = 0; i < columns.sources().length; i++) {
            LogicalType to = columns.readType().getTypeAt(i);
            int source = columns.sources()[i];
            boolean ok =
                    source < 0
                            ? constant(to, columns.constants()[i], 1) != null
                            : conversion(columns.fileType().getTypeAt(source), to, null, null)
                                    != null;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The output of {@code columns} over the decoded {@code file} vectors (and string readers).
     * REQUIRES: {@link #supports}.
     */
    static MappedVectors of(
            ColumnMapping columns,
            ColumnVector[] file,
            BytesColumnReader[] fileStrings,
            int capacity) {
        RowType readType = columns.readType();
        int arity = readType.getFieldCount();
        ColumnVector[] vectors = new ColumnVector[arity];
        BytesColumnReader[] strings = new BytesColumnReader[arity];
        Conversion[] conversions = new Conversion[arity];
        for (int i = 0; i < arity; i++) {
            int source = columns.sources()[i];
            LogicalType to = readType.getTypeAt(i);
            if (source < 0) {
                vectors[i] = constant(to, columns.constants()[i], capacity);
                continue;
            }
            LogicalType from = columns.fileType().getTypeAt(source);
            if (sameVector(from, to)) {
                vectors[i] = file[source];
                strings[i] = fileStrings[source];
                continue;
            }
            AbstractHeapVector out = output(to, capacity);
            vectors[i] = out;
            conversions[i] = conversion(from, to, file[source], out);
        }
        return new MappedVectors(vectors, strings, conversions);
    }

    ColumnVector[] vectors() {
        return vectors;
    }

    /** Per output column, the reader of its strings or binaries, else null. */
    BytesColumnReader[] bytes() {
        return strings;
    }

    /** Converts the first {@code rows} rows of the decoded vectors into the output vectors. */
    void convert(int rows) {
        for (Conversion c : conversions) {
            if (c != null) {
                c.convert(rows);
            }
        }
    }

    /** Same values in the same vector: equal types, or strings that only got longer. */
    private static boolean sameVector(LogicalType from, LogicalType to) {
        return from.copy(true).equals(to.copy(true))
                || (from.getTypeRoot() == LogicalTypeRoot.CHAR
                                || from.getTypeRoot() == LogicalTypeRoot.VARCHAR)
                        && to.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }

    @Nullable
    private static AbstractHeapVector output(LogicalType to, int capacity) {
        return switch (to.getTypeRoot()) {
            case SMALLINT -> new HeapShortVector(capacity);
            case INTEGER -> new HeapIntVector(capacity);
            case BIGINT -> new HeapLongVector(capacity);
            case DOUBLE -> new HeapDoubleVector(capacity);
            case DECIMAL ->
                    DecimalData.isCompact(((DecimalType) to).getPrecision())
                            ? new RawVectors.LongDecimals(capacity)
                            : null;
            default -> null;
        };
    }

    /**
     * The per-batch conversion of {@code in} into {@code out}, or null if there is none by vectors;
     * with null vectors, only whether there is one (a non-null placeholder).
     */
    @Nullable
    private static Conversion conversion(
            LogicalType from,
            LogicalType to,
            @Nullable ColumnVector in,
            @Nullable AbstractHeapVector out) {
        if (sameVector(from, to)) {
            return rows -> {};
        }
        if (in == null) {
            // Only asked whether: answer with a stand-in for a conversion of this pair.
            ColumnVector stand = probe(from);
            return stand == null ? null : conversion(from, to, stand, output(to, 1));
        }
        LogicalTypeRoot source = from.getTypeRoot();
        if (out instanceof HeapLongVector o && !(out instanceof RawVectors.LongDecimals)) {
            return switch (source) {
                case TINYINT ->
                        convert(in, o, (r, v) -> o.setLong(r, ((HeapByteVector) v).getByte(r)));
                case SMALLINT ->
                        convert(in, o, (r, v) -> o.setLong(r, ((HeapShortVector) v).getShort(r)));
                case INTEGER ->
                        in instanceof HeapIntVector iv && !(in instanceof RawVectors.IntDecimals)
                                ? convert(in, o, (r, v) -> o.setLong(r, iv.getInt(r)))
                                : null;
                default -> null;
            };
        }
        if (out instanceof HeapIntVector o) {
            return switch (source) {
                case TINYINT ->
                        convert(in, o, (r, v) -> o.setInt(r, ((HeapByteVector) v).getByte(r)));
                case SMALLINT ->
                        convert(in, o, (r, v) -> o.setInt(r, ((HeapShortVector) v).getShort(r)));
                default -> null;
            };
        }
        if (out instanceof HeapShortVector o && source == LogicalTypeRoot.TINYINT) {
            return convert(in, o, (r, v) -> o.setShort(r, ((HeapByteVector) v).getByte(r)));
        }
        if (out instanceof HeapDoubleVector o && in instanceof HeapFloatVector f) {
            return convert(in, o, (r, v) -> o.setDouble(r, f.getFloat(r)));
        }
        if (out instanceof RawVectors.LongDecimals o && source == LogicalTypeRoot.DECIMAL) {
            long factor =
                    BigInteger.TEN
                            .pow(((DecimalType) to).getScale() - ((DecimalType) from).getScale())
                            .longValueExact();
            if (in instanceof RawVectors.IntDecimals d) {
                return convert(in, o, (r, v) -> o.setLong(r, d.getInt(r) * factor));
            }
            if (in instanceof RawVectors.LongDecimals d) {
                return convert(in, o, (r, v) -> o.setLong(r, d.getLong(r) * factor));
            }
        }
        return null;
    }

    /** A decoded vector of {@code type} as the flat readers make it, to ask about conversions. */
    @Nullable
    private static ColumnVector probe(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case TINYINT -> new HeapByteVector(1);
            case SMALLINT -> new HeapShortVector(1);
            case INTEGER -> new HeapIntVector(1);
            case FLOAT -> new HeapFloatVector(1);
            case DECIMAL -> {
                int precision = ((DecimalType) type).getPrecision();
                yield precision <= 9
                        ? new RawVectors.IntDecimals(1)
                        : precision <= 18 ? new RawVectors.LongDecimals(1) : null;
            }
            default -> null;
        };
    }

    /** Sets one non-null value of row {@code r} of the output from the decoded vector. */
    @FunctionalInterface
    private interface ValueCopy {
        void copy(int r, ColumnVector in);
    }

    private static Conversion convert(ColumnVector in, AbstractHeapVector out, ValueCopy copy) {
        return rows -> {
            out.reset();
            for (int r = 0; r < rows; r++) {
                if (in.isNullAt(r)) {
                    out.setNullAt(r);
                } else {
                    copy.copy(r, in);
                }
            }
        };
    }

    /**
     * A vector of {@code capacity} rows that all hold {@code value} (Flink internal data; null for
     * all null), or null if such a constant is not supported by vectors.
     */
    @Nullable
    static AbstractHeapVector constant(LogicalType type, @Nullable Object value, int capacity) {
        if (value == null) {
            RawVectors.Nulls nulls = new RawVectors.Nulls(capacity);
            nulls.fillWithNulls();
            return nulls;
        }
        AbstractHeapVector vector =
                switch (type.getTypeRoot()) {
                    case BOOLEAN -> {
                        HeapBooleanVector v = new HeapBooleanVector(capacity);
                        java.util.Arrays.fill(v.vector, (Boolean) value);
                        yield v;
                    }
                    case INTEGER, DATE -> {
                        HeapIntVector v = new HeapIntVector(capacity);
                        java.util.Arrays.fill(v.vector, (Integer) value);
                        yield v;
                    }
                    case BIGINT -> {
                        HeapLongVector v = new HeapLongVector(capacity);
                        java.util.Arrays.fill(v.vector, (Long) value);
                        yield v;
                    }
                    case DOUBLE -> {
                        HeapDoubleVector v = new HeapDoubleVector(capacity);
                        java.util.Arrays.fill(v.vector, (Double) value);
                        yield v;
                    }
                    default -> null;
                };
        return vector;
    }
}
