package dev.tarn.format.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.predicate.Predicate.Op;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pruning by file statistics never drops a file that may match. Files have two columns, {@code id
 * BIGINT} and {@code s STRING}.
 */
class PredicateEvaluatorTest {

    private static Predicate id(Op op, Object... literals) {
        return new Predicate.Leaf(op, 0, "id", new BigIntType(), Arrays.asList(literals));
    }

    private static Predicate s(Op op, String... literals) {
        return new Predicate.Leaf(
                op,
                1,
                "s",
                VarCharType.STRING_TYPE,
                Arrays.stream(literals).map(l -> (Object) StringData.fromString(l)).toList());
    }

    /** A file of {@code rows} rows: ids in [minId, maxId] with {@code idNulls} nulls; s unknown. */
    private static DataFile file(long rows, Long minId, Long maxId, long idNulls) {
        return new DataFile(
                "data-1.parquet",
                FileContent.DATA,
                100,
                rows,
                0,
                0,
                new SequenceRange(0, 0),
                new ColumnStats(
                        new Object[] {minId, StringData.fromString("b")},
                        new Object[] {maxId, StringData.fromString("d")},
                        new long[] {idNulls, 0}),
                null);
    }

    @ParameterizedTest(name = "id {0} {1} on ids 10..20: {2}")
    @CsvSource({
        "EQ, 9, false", "EQ, 10, true", "EQ, 20, true", "EQ, 21, false",
        "LT, 10, false", "LT, 11, true", "LT_EQ, 9, false", "LT_EQ, 10, true",
        "GT, 20, false", "GT, 19, true", "GT_EQ, 21, false", "GT_EQ, 20, true",
        "NOT_EQ, 10, true", "NOT_EQ, 15, true"
    })
    void comparisonsAgainstMinMax(Op op, long literal, boolean mayMatch) {
        assertThat(PredicateEvaluator.mayMatchFile(id(op, literal), file(100, 10L, 20L, 0)))
                .isEqualTo(mayMatch);
    }

    @Test
    void notEqualPrunesOnlyAFileOfThatOneValue() {
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.NOT_EQ, 5L), file(10, 5L, 5L, 0)))
                .isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.NOT_EQ, 5L), file(10, 5L, 5L, 3)))
                .isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.NOT_EQ, 6L), file(10, 5L, 5L, 0)))
                .isTrue();
    }

    @Test
    void inMatchesIfAnyValueIsInRange() {
        DataFile f = file(100, 10L, 20L, 0);
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IN, 1L, 25L), f)).isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IN, 1L, 15L), f)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IN, 20L), f)).isTrue();
    }

    @Test
    void andOrCombine() {
        DataFile f = file(100, 10L, 20L, 0);
        Predicate no = id(Op.EQ, 30L);
        Predicate yes = id(Op.EQ, 15L);
        assertThat(PredicateEvaluator.mayMatchFile(new Predicate.And(List.of(yes, no)), f))
                .isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(new Predicate.And(List.of(yes, yes)), f))
                .isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(new Predicate.Or(List.of(no, yes)), f)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(new Predicate.Or(List.of(no, no)), f)).isFalse();
        // BETWEEN 21 AND 30 is disjoint from 10..20, though each bound alone overlaps.
        assertThat(
                        PredicateEvaluator.mayMatchFile(
                                new Predicate.And(List.of(id(Op.GT_EQ, 21L), id(Op.LT_EQ, 30L))),
                                f))
                .isFalse();
    }

    @Test
    void nullCounts() {
        DataFile allNull = file(10, null, null, 10);
        DataFile noNulls = file(10, 1L, 5L, 0);
        DataFile someNulls = file(10, 1L, 5L, 4);
        DataFile unknownNulls = file(10, 1L, 5L, -1);

        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NULL), allNull)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NULL), noNulls)).isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NULL), someNulls)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NULL), unknownNulls)).isTrue();

        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NOT_NULL), allNull)).isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NOT_NULL), noNulls)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NOT_NULL), someNulls)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.IS_NOT_NULL), unknownNulls)).isTrue();

        // A comparison with NULL is never true.
        for (Op op : List.of(Op.EQ, Op.NOT_EQ, Op.LT, Op.GT, Op.IN)) {
            assertThat(PredicateEvaluator.mayMatchFile(id(op, 3L), allNull))
                    .as(op.name())
                    .isFalse();
        }
    }

    @Test
    void unknownStatisticsNeverPrune() {
        DataFile unknown =
                new DataFile(
                        "data-1.parquet",
                        FileContent.DATA,
                        100,
                        10,
                        0,
                        0,
                        new SequenceRange(0, 0),
                        ColumnStats.unknown(2),
                        null);
        DataFile onlyMin = file(10, 5L, null, 0);
        for (Predicate p :
                List.of(
                        id(Op.EQ, 1L),
                        id(Op.NOT_EQ, 1L),
                        id(Op.LT, 1L),
                        id(Op.GT, 1L),
                        id(Op.IN, 1L, 2L),
                        id(Op.IS_NULL),
                        id(Op.IS_NOT_NULL))) {
            assertThat(PredicateEvaluator.mayMatchFile(p, unknown))
                    .as("%s on unknown stats", p)
                    .isTrue();
        }
        assertThat(PredicateEvaluator.mayMatchFile(id(Op.LT, 1L), onlyMin)).isTrue();
        // A column the file has no statistics for (added later): may match.
        Predicate third = new Predicate.Leaf(Op.EQ, 2, "x", new IntType(), List.of(1));
        assertThat(PredicateEvaluator.mayMatchFile(third, file(10, 1L, 5L, 0))).isTrue();
    }

    @Test
    void literalsOfAnotherNumericClassCompareByValue() {
        DataFile f = file(100, 10L, 20L, 0);
        Predicate intLiteral = new Predicate.Leaf(Op.EQ, 0, "id", new BigIntType(), List.of(15));
        Predicate intOutside = new Predicate.Leaf(Op.EQ, 0, "id", new BigIntType(), List.of(25));
        assertThat(PredicateEvaluator.mayMatchFile(intLiteral, f)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(intOutside, f)).isFalse();
        // A literal that cannot be compared at all does not prune (and does not throw).
        Predicate string =
                new Predicate.Leaf(
                        Op.EQ, 0, "id", new BigIntType(), List.of(StringData.fromString("15")));
        assertThat(PredicateEvaluator.mayMatchFile(string, f)).isTrue();
    }

    @Test
    void stringStatistics() {
        DataFile f = file(100, 10L, 20L, 0); // s in ["b", "d"]
        assertThat(PredicateEvaluator.mayMatchFile(s(Op.EQ, "a"), f)).isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(s(Op.EQ, "c"), f)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(s(Op.EQ, "dz"), f)).isFalse();
        assertThat(PredicateEvaluator.mayMatchFile(s(Op.GT_EQ, "d"), f)).isTrue();
        assertThat(PredicateEvaluator.mayMatchFile(s(Op.IN, "a", "e"), f)).isFalse();
    }

    @Test
    void leavesCheckTheirLiterals() {
        assertThatThrownBy(() -> id(Op.EQ))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Predicate EQ on id takes 1 literals, got 0");
        assertThatThrownBy(() -> id(Op.IS_NULL, 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Predicate IS_NULL on id takes 0 literals, got 1");
        assertThatThrownBy(() -> id(Op.IN, 1L, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Predicate IN on id has a null literal");
    }
}
