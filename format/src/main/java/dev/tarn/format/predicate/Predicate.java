package dev.tarn.format.predicate;

import dev.tarn.format.manifest.DataFile;
import java.io.Serializable;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A filter over a table's rows, used to skip partitions, files and Parquet row groups. Readers only
 * use it to prune: rows that pass pruning are not re-checked here, so the engine must still apply
 * the filter itself. Literals are Flink internal data of the field's type.
 */
public sealed interface Predicate extends Serializable {

    /**
     * The part of {@code filter} that refers to the given fields only (table field indexes): every
     * row it rules out is ruled out by the filter too, so restricted to the primary-key columns it
     * may prune before the versions of a key merge. Null if no such part exists (or the filter is).
     */
    @Nullable
    static Predicate onlyFields(@Nullable Predicate filter, int[] fields) {
        return Predicates.onlyFields(filter, fields);
    }

    /**
     * Whether {@code file} may hold a row this predicate matches, judged by its column statistics
     * alone: "may" whenever the statistics cannot tell.
     */
    default boolean mayMatch(DataFile file) {
        return PredicateEvaluator.mayMatchFile(this, file);
    }

    /** Comparison operators of a leaf. */
    enum Op {
        EQ,
        NOT_EQ,
        LT,
        LT_EQ,
        GT,
        GT_EQ,
        IS_NULL,
        IS_NOT_NULL,
        IN
    }

    /** {@code field op literals}; {@code field} indexes the table's full row type. */
    record Leaf(Op op, int field, String fieldName, LogicalType type, List<Object> literals)
            implements Predicate {
        public Leaf {
            int expected =
                    switch (op) {
                        case IS_NULL, IS_NOT_NULL -> 0;
                        case IN -> -1;
                        default -> 1;
                    };
            if (expected >= 0 && literals.size() != expected) {
                throw new IllegalArgumentException(
                        "Predicate "
                                + op
                                + " on "
                                + fieldName
                                + " takes "
                                + expected
                                + " literals, got "
                                + literals.size());
            }
            for (Object literal : literals) {
                if (literal == null) {
                    throw new IllegalArgumentException(
                            "Predicate " + op + " on " + fieldName + " has a null literal");
                }
            }
        }

        /**
         * Whether a row whose field holds {@code value} (Flink internal data of the leaf's type,
         * null for SQL NULL) may match this leaf: a partition's value, for example.
         */
        public boolean mayMatchValue(@Nullable Object value) {
            return PredicateEvaluator.mayMatchValue(this, value);
        }

        /** Strings in Flink's internal form are not Java-serializable; ship them as Strings. */
        private Object writeReplace() {
            return new SerializedLeaf(this);
        }
    }

    record And(List<Predicate> children) implements Predicate {}

    record Or(List<Predicate> children) implements Predicate {}
}
