package dev.tarn.format.predicate;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Decides, without reading rows, whether a file, or a row whose column holds a given value, may
 * match a {@link Predicate}. Answers "may" whenever it cannot be sure: pruning must never drop a
 * matching row. Reached through {@link Predicate#mayMatch} and {@link
 * Predicate.Leaf#mayMatchValue}.
 */
final class PredicateEvaluator {

    private PredicateEvaluator() {}

    /** Whether {@code file} may hold a row matching {@code p}, judged by its column statistics. */
    static boolean mayMatchFile(Predicate p, DataFile file) {
        if (p instanceof Predicate.And and) {
            return and.children().stream().allMatch(c -> mayMatchFile(c, file));
        }
        if (p instanceof Predicate.Or or) {
            return or.children().stream().anyMatch(c -> mayMatchFile(c, file));
        }
        Predicate.Leaf leaf = (Predicate.Leaf) p;
        ColumnStats stats = file.valueStats();
        if (leaf.field() >= stats.columnCount()) {
            return true;
        }
        long nulls = stats.nullCount(leaf.field());
        if (leaf.op() == Predicate.Op.IS_NULL) {
            return nulls != 0;
        }
        if (nulls >= 0 && nulls == file.rowCount()) {
            // All null: no comparison and no IS NOT NULL can be true.
            return false;
        }
        Object min = stats.min(leaf.field());
        Object max = stats.max(leaf.field());
        if (min == null || max == null) {
            return true;
        }
        return mayMatch(leaf, min, max, nulls, file.rowCount());
    }

    /**
     * Whether a row whose column {@code leaf.field()} holds {@code value} (Flink internal data of
     * the leaf's type, null for SQL NULL) may match {@code leaf}: a partition value, for example.
     */
    static boolean mayMatchValue(Predicate.Leaf leaf, @Nullable Object value) {
        return value == null
                ? leaf.op() == Predicate.Op.IS_NULL
                : mayMatch(leaf, value, value, 0, 1);
    }

    private static boolean mayMatch(
            Predicate.Leaf leaf, Object min, Object max, long nulls, long rows) {
        try {
            return compare(leaf, min, max, nulls, rows);
        } catch (ClassCastException e) {
            // Bounds and literal of different kinds: no pruning.
            return true;
        }
    }

    private static boolean compare(
            Predicate.Leaf leaf, Object min, Object max, long nulls, long rows) {
        List<Object> lits = leaf.literals();
        return switch (leaf.op()) {
            case IS_NULL -> nulls != 0;
            case IS_NOT_NULL -> nulls < 0 || nulls < rows;
            case EQ -> cmp(min, lits.get(0)) <= 0 && cmp(max, lits.get(0)) >= 0;
            case NOT_EQ -> !(cmp(min, lits.get(0)) == 0 && cmp(max, lits.get(0)) == 0);
            case LT -> cmp(min, lits.get(0)) < 0;
            case LT_EQ -> cmp(min, lits.get(0)) <= 0;
            case GT -> cmp(max, lits.get(0)) > 0;
            case GT_EQ -> cmp(max, lits.get(0)) >= 0;
            case IN -> lits.stream().anyMatch(l -> cmp(min, l) <= 0 && cmp(max, l) >= 0);
        };
    }

    /** Compares two values of one type; throws ClassCastException for values of two kinds. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int cmp(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        return ((Comparable) a).compareTo(b);
    }
}
