package dev.tarn.format.lookup;

import dev.tarn.format.predicate.Predicate;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * A lookup's filter applied to the rows it reads (the table's readers only prune by it): each leaf
 * asks {@link Predicate.Leaf#mayMatchValue} of the row's value, which is exact for one value.
 * Compiled once; thread-safe.
 */
@FunctionalInterface
interface RowFilter {

    boolean test(RowData row);

    /**
     * @param readPosition table field index -> its position in the rows tested
     */
    static RowFilter of(@Nullable Predicate filter, int[] readPosition) {
        if (filter == null) {
            return row -> true;
        }
        if (filter instanceof Predicate.Leaf leaf) {
            RowData.FieldGetter getter =
                    RowData.createFieldGetter(leaf.type(), readPosition[leaf.field()]);
            return row -> leaf.mayMatchValue(getter.getFieldOrNull(row));
        }
        if (filter instanceof Predicate.And and) {
            List<RowFilter> all = and.children().stream().map(c -> of(c, readPosition)).toList();
            return row -> all.stream().allMatch(f -> f.test(row));
        }
        Predicate.Or or = (Predicate.Or) filter;
        List<RowFilter> any = or.children().stream().map(c -> of(c, readPosition)).toList();
        return row -> any.stream().anyMatch(f -> f.test(row));
    }
}
