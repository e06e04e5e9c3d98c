package dev.tarn.format.parquet.read;

import dev.tarn.format.predicate.Predicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * A pushed filter evaluated on a decoded batch: it narrows the batch's selection (the rows served,
 * ascending) to the rows for which the filter is TRUE, so the rows a query's WHERE clause drops are
 * never transposed or handed to the engine. It may keep a row the filter drops (a part it cannot
 * evaluate counts as TRUE), never the other way round: SQL's three-valued logic without NOT lets
 * UNKNOWN (a comparison with NULL) count as FALSE, and a floating-point comparison that IEEE and a
 * total order would answer differently (NaN, signed zeros) keeps its row. Only for rows that are
 * read one by one (append files, files read with their deletion vectors), never for rows that are
 * merged afterwards: an older version of a key must not be dropped while a newer one is kept.
 */
final class VectorFilter {

    private final Node root;

    /** The positions of the columns it reads. */
    private final int[] columns;

    private VectorFilter(Node root, int[] columns) {
        this.root = root;
        this.columns = columns;
    }

    /** The positions (in the read type) of the columns it reads, ascending. */
    int[] columns() {
        return columns;
    }

    /**
     * The filter over a batch of {@code readType}'s columns, or null if no part of {@code filter}
     * can be evaluated on them: leaves of columns not read, of types without an exact comparison
     * here (CHAR, binary strings, nested), or in a disjunction with such a leaf.
     *
     * @param vectors the batch's vectors, by {@code readType}'s positions
     * @param row a row over the same batch, for the values no vector loop reads
     * @param batchRows the largest batch
     */
    @Nullable
    static VectorFilter of(
            Predicate filter,
            RowType readType,
            ColumnVector[] vectors,
            BatchRow row,
            int batchRows) {
        BitSet read = new BitSet();
        Node root = compile(filter, readType, vectors, row, batchRows, read);
        return root == null ? null : new VectorFilter(root, read.stream().toArray());
    }

    /**
     * Writes to {@code out} the rows of {@code in} (its first {@code count}, ascending) the filter
     * may keep, ascending, and returns how many; {@code out} may be {@code in}.
     */
    int filter(int[] in, int count, int[] out) {
        return root.filter(in, count, out);
    }

    @Nullable
    private static Node compile(
            Predicate p,
            RowType readType,
            ColumnVector[] vectors,
            BatchRow row,
            int batchRows,
            BitSet read) {
        if (p instanceof Predicate.And and) {
            List<Node> children = new ArrayList<>();
            for (Predicate child : and.children()) {
                Node node = compile(child, readType, vectors, row, batchRows, read);
                if (node != null) {
                    children.add(node);
                }
            }
            return children.isEmpty()
                    ? null
                    : children.size() == 1 ? children.get(0) : new All(children);
        }
        if (p instanceof Predicate.Or or) {
            List<Node> children = new ArrayList<>();
            for (Predicate child : or.children()) {
                Node node = compile(child, readType, vectors, row, batchRows, read);
                if (node == null) {
                    return null; // A branch that cannot be evaluated may keep any row.
                }
                children.add(node);
            }
            return new Any(children, batchRows);
        }
        Predicate.Leaf leaf = (Predicate.Leaf) p;
        Node node = leaf(leaf, readType, vectors, row);
        if (node != null) {
            read.set(readType.getFieldNames().indexOf(leaf.fieldName()));
        }
        return node;
    }

    @Nullable
    private static Node leaf(
            Predicate.Leaf leaf, RowType readType, ColumnVector[] vectors, BatchRow row) {
        int pos = readType.getFieldNames().indexOf(leaf.fieldName());
        if (pos < 0) {
            return null;
        }
        LogicalType type = readType.getTypeAt(pos);
        LogicalTypeRoot root = type.getTypeRoot();
        if (root != leaf.type().getTypeRoot()) {
            return null;
        }
        ColumnVector vector = vectors[pos];
        switch (root) {
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, BIGINT:
                if (leaf.op() == Predicate.Op.IS_NULL || leaf.op() == Predicate.Op.IS_NOT_NULL) {
                    return new Nulls(vector, leaf.op() == Predicate.Op.IS_NULL);
                }
                if (vector instanceof HeapLongVector longs && root == LogicalTypeRoot.BIGINT) {
                    return new Longs(longs, Literals.of(leaf));
                }
                if (vector instanceof HeapIntVector ints && root != LogicalTypeRoot.BIGINT) {
                    return new Ints(ints, Literals.of(leaf));
                }
                return new Values(leaf, RowData.createFieldGetter(type, pos), row);
            case FLOAT, DOUBLE:
                if (leaf.op() == Predicate.Op.IS_NULL || leaf.op() == Predicate.Op.IS_NOT_NULL) {
                    return new Nulls(vector, leaf.op() == Predicate.Op.IS_NULL);
                }
                return new Doubles(vector, leaf);
            case BOOLEAN,
            TINYINT,
            SMALLINT,
            DECIMAL,
            VARCHAR,
            TIMESTAMP_WITHOUT_TIME_ZONE,
            TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (leaf.op() == Predicate.Op.IS_NULL || leaf.op() == Predicate.Op.IS_NOT_NULL) {
                    return new Nulls(vector, leaf.op() == Predicate.Op.IS_NULL);
                }
                return new Values(leaf, RowData.createFieldGetter(type, pos), row);
            default:
                return null;
        }
    }

    /** A part of the filter, evaluated on a selection of a batch's rows. */
    private abstract static class Node {
        /** As {@link VectorFilter#filter}; {@code out} may be {@code in}. */
        abstract int filter(int[] in, int count, int[] out);
    }

    /** Conjunction: each child narrows what the one before kept. */
    private static final class All extends Node {
        private final Node[] children;

        All(List<Node> children) {
            this.children = children.toArray(new Node[0]);
        }

        @Override
        int filter(int[] in, int count, int[] out) {
            int kept = children[0].filter(in, count, out);
            for (int i = 1; i < children.length && kept > 0; i++) {
                kept = children[i].filter(out, kept, out);
            }
            return kept;
        }
    }

    /** Disjunction: the rows of the selection any child keeps, marked per row of the batch. */
    private static final class Any extends Node {
        private final Node[] children;
        private final int[] scratch;
        private final boolean[] marked;

        Any(List<Node> children, int batchRows) {
            this.children = children.toArray(new Node[0]);
            this.scratch = new int[batchRows];
            this.marked = new boolean[batchRows];
        }

        @Override
        int filter(int[] in, int count, int[] out) {
            for (Node child : children) {
                int kept = child.filter(in, count, scratch);
                for (int i = 0; i < kept; i++) {
                    marked[scratch[i]] = true;
                }
            }
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int r = in[i];
                if (marked[r]) {
                    marked[r] = false;
                    out[kept++] = r;
                }
            }
            return kept;
        }
    }

    /** IS NULL, IS NOT NULL. */
    private static final class Nulls extends Node {
        private final ColumnVector vector;
        private final boolean keepNulls;

        Nulls(ColumnVector vector, boolean keepNulls) {
            this.vector = vector;
            this.keepNulls = keepNulls;
        }

        @Override
        int filter(int[] in, int count, int[] out) {
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int r = in[i];
                if (vector.isNullAt(r) == keepNulls) {
                    out[kept++] = r;
                }
            }
            return kept;
        }
    }

    /**
     * An integer leaf's literals as a closed range ({@code =}, {@code <}, {@code <=}, {@code >},
     * {@code >=}), or as a sorted set of values kept ({@code IN}) or dropped ({@code <>}).
     */
    private record Literals(long low, long high, long[] values, boolean keepValues) {

        static Literals of(Predicate.Leaf leaf) {
            List<Object> literals = leaf.literals();
            long[] values = new long[literals.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = ((Number) literals.get(i)).longValue();
            }
            Arrays.sort(values);
            long v = values.length == 1 ? values[0] : 0;
            return switch (leaf.op()) {
                case EQ -> new Literals(v, v, null, false);
                case LT ->
                        v == Long.MIN_VALUE
                                ? new Literals(1, 0, null, false)
                                : new Literals(Long.MIN_VALUE, v - 1, null, false);
                case LT_EQ -> new Literals(Long.MIN_VALUE, v, null, false);
                case GT ->
                        v == Long.MAX_VALUE
                                ? new Literals(1, 0, null, false)
                                : new Literals(v + 1, Long.MAX_VALUE, null, false);
                case GT_EQ -> new Literals(v, Long.MAX_VALUE, null, false);
                case IN -> new Literals(0, 0, values, true);
                case NOT_EQ -> new Literals(0, 0, values, false);
                case IS_NULL, IS_NOT_NULL ->
                        throw new IllegalArgumentException("Not a comparison: " + leaf);
            };
        }

        boolean keeps(long value) {
            return values == null
                    ? value >= low && value <= high
                    : (Arrays.binarySearch(values, value) >= 0) == keepValues;
        }
    }

    /**
     * A comparison of an integer column, whose values {@link #value} reads from the vector's array
     * (two subclasses: the loop's call stays inlined).
     */
    private abstract static class Integers extends Node {
        private final ColumnVector vector;
        private final Literals literals;

        Integers(ColumnVector vector, Literals literals) {
            this.vector = vector;
            this.literals = literals;
        }

        abstract long value(int r);

        @Override
        final int filter(int[] in, int count, int[] out) {
            int kept = 0;
            if (literals.values() == null) {
                long low = literals.low();
                long high = literals.high();
                for (int i = 0; i < count; i++) {
                    int r = in[i];
                    long v = value(r);
                    if (v >= low && v <= high && !vector.isNullAt(r)) {
                        out[kept++] = r;
                    }
                }
            } else {
                for (int i = 0; i < count; i++) {
                    int r = in[i];
                    if (literals.keeps(value(r)) && !vector.isNullAt(r)) {
                        out[kept++] = r;
                    }
                }
            }
            return kept;
        }
    }

    /** A comparison of a BIGINT column. */
    private static final class Longs extends Integers {
        private final long[] values;

        Longs(HeapLongVector vector, Literals literals) {
            super(vector, literals);
            this.values = vector.vector;
        }

        @Override
        long value(int r) {
            return values[r];
        }
    }

    /** A comparison of an INT, DATE or TIME column. */
    private static final class Ints extends Integers {
        private final int[] values;

        Ints(HeapIntVector vector, Literals literals) {
            super(vector, literals);
            this.values = vector.vector;
        }

        @Override
        long value(int r) {
            return values[r];
        }
    }

    /**
     * A comparison of a FLOAT or DOUBLE column. Where IEEE comparison and a total order disagree (a
     * NaN on either side, a zero against a zero of either sign) the row is kept, whichever the
     * engine follows; elsewhere the two agree.
     */
    private static final class Doubles extends Node {
        private final ColumnVector vector;
        private final Predicate.Op op;
        private final double[] literals;

        Doubles(ColumnVector vector, Predicate.Leaf leaf) {
            this.vector = vector;
            this.op = leaf.op();
            this.literals =
                    leaf.literals().stream().mapToDouble(l -> ((Number) l).doubleValue()).toArray();
        }

        @Override
        int filter(int[] in, int count, int[] out) {
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int r = in[i];
                if (!vector.isNullAt(r) && keeps(value(r))) {
                    out[kept++] = r;
                }
            }
            return kept;
        }

        private double value(int r) {
            return vector instanceof HeapDoubleVector d
                    ? d.vector[r]
                    : ((HeapFloatVector) vector).vector[r];
        }

        private boolean keeps(double v) {
            if (Double.isNaN(v)) {
                return true;
            }
            boolean kept = false;
            for (double l : literals) {
                if (Double.isNaN(l) || (v == 0 && l == 0)) {
                    return true;
                }
                kept |=
                        switch (op) {
                            case EQ, IN -> v == l;
                            case NOT_EQ -> v != l;
                            case LT -> v < l;
                            case LT_EQ -> v <= l;
                            case GT -> v > l;
                            case GT_EQ -> v >= l;
                            case IS_NULL, IS_NOT_NULL -> true;
                        };
            }
            return kept;
        }
    }

    /**
     * A comparison of any other column, by its values' {@code compareTo} (strings by their UTF-8
     * bytes, decimals by value, timestamps by instant), reading each row's value.
     */
    private static final class Values extends Node {
        private final Predicate.Leaf leaf;
        private final RowData.FieldGetter getter;
        private final BatchRow row;

        Values(Predicate.Leaf leaf, RowData.FieldGetter getter, BatchRow row) {
            this.leaf = leaf;
            this.getter = getter;
            this.row = row;
        }

        @Override
        int filter(int[] in, int count, int[] out) {
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int r = in[i];
                row.setRow(r);
                Object value = getter.getFieldOrNull(row);
                if (value != null && keeps(value)) {
                    out[kept++] = r;
                }
            }
            return kept;
        }

        private boolean keeps(Object value) {
            try {
                List<Object> literals = leaf.literals();
                return switch (leaf.op()) {
                    case EQ -> compare(value, literals.get(0)) == 0;
                    case NOT_EQ -> compare(value, literals.get(0)) != 0;
                    case LT -> compare(value, literals.get(0)) < 0;
                    case LT_EQ -> compare(value, literals.get(0)) <= 0;
                    case GT -> compare(value, literals.get(0)) > 0;
                    case GT_EQ -> compare(value, literals.get(0)) >= 0;
                    case IN -> literals.stream().anyMatch(l -> compare(value, l) == 0);
                    case IS_NULL, IS_NOT_NULL -> true;
                };
            } catch (ClassCastException e) {
                return true; // a value and a literal of two kinds: keep the row
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static int compare(Object value, Object literal) {
            if (value.getClass() != literal.getClass()) {
                throw new ClassCastException();
            }
            return ((Comparable) value).compareTo(literal);
        }
    }
}
