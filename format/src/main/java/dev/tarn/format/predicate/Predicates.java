package dev.tarn.format.predicate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/** Operations on {@link Predicate}s. */
final class Predicates {

    private Predicates() {}

    /**
     * The part of a filter that refers to the given fields only (table field indexes): every row it
     * rules out is ruled out by the filter too. Restricted to the primary-key columns, it rules out
     * all versions of a key alike, so it may prune before versions merge. Null if no such part
     * exists (or the filter is null).
     */
    @Nullable
    static Predicate onlyFields(@Nullable Predicate filter, int[] fields) {
        if (filter == null) {
            return null;
        }
        Set<Integer> kept = new HashSet<>();
        for (int i : fields) {
            kept.add(i);
        }
        return restrict(filter, kept);
    }

    @Nullable
    private static Predicate restrict(Predicate p, Set<Integer> fields) {
        if (p instanceof Predicate.Leaf leaf) {
            return fields.contains(leaf.field()) ? leaf : null;
        }
        if (p instanceof Predicate.And and) {
            List<Predicate> kept = new ArrayList<>();
            for (Predicate child : and.children()) {
                Predicate r = restrict(child, fields);
                if (r != null) {
                    kept.add(r);
                }
            }
            return kept.isEmpty() ? null : kept.size() == 1 ? kept.get(0) : new Predicate.And(kept);
        }
        Predicate.Or or = (Predicate.Or) p;
        List<Predicate> kept = new ArrayList<>();
        for (Predicate child : or.children()) {
            Predicate r = restrict(child, fields);
            if (r == null) {
                return null; // One branch may match any key: the disjunction cannot prune.
            }
            kept.add(r);
        }
        return new Predicate.Or(kept);
    }
}
