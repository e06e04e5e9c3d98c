package dev.tarn.format.lsm.merge;

import static dev.tarn.format.lsm.MergeTestSupport.engine;
import static dev.tarn.format.lsm.MergeTestSupport.expected;
import static dev.tarn.format.lsm.MergeTestSupport.merge;
import static dev.tarn.format.lsm.TestRows.delete;
import static dev.tarn.format.lsm.TestRows.insert;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FirstRowMergeTest {

    @Test
    void theOldestRowWinsAndRetractionsAreIgnored() {
        MergeFunction firstRow = engine("first-row", Map.of());
        assertThat(merge(firstRow, insert(1, 7, 1L, "first", 1), insert(2, 7, 2L, "second", 2)))
                .isEqualTo(expected(1L, "+I", 7, 1L, "first", 1));
        assertThat(
                        merge(
                                firstRow,
                                delete(1, 7, 1L, "gone", 1),
                                insert(2, 7, 2L, "kept", 2),
                                delete(3, 7, 2L, "kept", 2)))
                .isEqualTo(expected(2L, "+I", 7, 2L, "kept", 2));
        assertThat(merge(firstRow, delete(1, 7, 1L, "x", 1))).isNull();
    }

    @Test
    void sequenceFieldPicksTheSmallestValue() {
        MergeFunction firstRow = engine("first-row", Map.of("sequence.field", "c"));
        assertThat(merge(firstRow, insert(1, 7, 1L, "x", 9), insert(2, 7, 2L, "y", 3)))
                .isEqualTo(expected(2L, "+I", 7, 2L, "y", 3));
    }
}
