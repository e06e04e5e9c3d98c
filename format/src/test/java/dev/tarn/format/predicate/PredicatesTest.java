package dev.tarn.format.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.predicate.Predicate.Op;
import java.util.List;
import org.apache.flink.table.types.logical.BigIntType;
import org.junit.jupiter.api.Test;

/** Restricting a filter to some fields keeps only what rules out no row the filter keeps. */
class PredicatesTest {

    private static final int[] FIRST_TWO = {0, 1};

    private static Predicate eq(int field, long literal) {
        return new Predicate.Leaf(Op.EQ, field, "f" + field, new BigIntType(), List.of(literal));
    }

    @Test
    void keepsTheConjunctsOnTheGivenFields() {
        Predicate filter = new Predicate.And(List.of(eq(0, 1), eq(2, 3), eq(1, 2)));
        assertThat(Predicates.onlyFields(filter, FIRST_TWO))
                .isEqualTo(new Predicate.And(List.of(eq(0, 1), eq(1, 2))));
        assertThat(Predicates.onlyFields(new Predicate.And(List.of(eq(0, 1), eq(2, 3))), FIRST_TWO))
                .as("a single kept conjunct")
                .isEqualTo(eq(0, 1));
        assertThat(Predicates.onlyFields(eq(2, 3), FIRST_TWO))
                .as("a leaf on another field")
                .isNull();
    }

    @Test
    void aDisjunctionWithABranchOnAnotherFieldRulesOutNothing() {
        assertThat(Predicates.onlyFields(new Predicate.Or(List.of(eq(0, 1), eq(2, 3))), FIRST_TWO))
                .isNull();
        Predicate onKeys = new Predicate.Or(List.of(eq(0, 1), eq(1, 2)));
        assertThat(Predicates.onlyFields(onKeys, FIRST_TWO)).isEqualTo(onKeys);
        assertThat(
                        Predicates.onlyFields(
                                new Predicate.Or(
                                        List.of(
                                                eq(0, 1),
                                                new Predicate.And(List.of(eq(1, 2), eq(2, 3))))),
                                FIRST_TWO))
                .as("an OR whose AND branch keeps its part on the fields")
                .isEqualTo(new Predicate.Or(List.of(eq(0, 1), eq(1, 2))));
    }

    @Test
    void noFilterStaysNoFilter() {
        assertThat(Predicates.onlyFields(null, FIRST_TWO)).isNull();
    }
}
