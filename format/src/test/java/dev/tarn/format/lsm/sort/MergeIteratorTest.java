package dev.tarn.format.lsm.sort;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static dev.tarn.format.lsm.MergeTestSupport.engine;
import static dev.tarn.format.lsm.MergeTestSupport.expected;
import static dev.tarn.format.lsm.TestRows.delete;
import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.TestRows.insert;
import static dev.tarn.format.lsm.TestRows.reusing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class MergeIteratorTest {

    private static final KeyComparator KEYS = new KeyComparator(TABLE, KEY);

    private static List<List<Object>> merge(
            MergeFunction function, boolean dropDeletes, List<List<KeyValue>> runs) {
        List<Iterator<KeyValue>> iterators = runs.stream().map(run -> reusing(run, TABLE)).toList();
        return describeAll(new MergeIterator(iterators, KEYS, function, dropDeletes), TABLE);
    }

    @Test
    void emitsOneResultPerKeyInKeyOrderWithTheNewestVersion() {
        List<KeyValue> oldest =
                List.of(
                        insert(1, 1, 1L, "a", 0),
                        insert(2, 3, 1L, "c", 0),
                        insert(3, 5, 1L, "e", 0));
        List<KeyValue> middle = List.of(insert(4, 2, 2L, "b", 0), insert(5, 3, 2L, "c", 0));
        List<KeyValue> newest = List.of(insert(6, 3, 3L, "c", 0), insert(7, 6, 3L, "f", 0));
        assertThat(merge(engine("deduplicate", Map.of()), true, List.of(oldest, middle, newest)))
                .containsExactly(
                        expected(1L, "+I", 1, 1L, "a", 0),
                        expected(4L, "+I", 2, 2L, "b", 0),
                        expected(6L, "+I", 3, 3L, "c", 0),
                        expected(3L, "+I", 5, 1L, "e", 0),
                        expected(7L, "+I", 6, 3L, "f", 0));
    }

    @Test
    void onEqualSequenceTheNewerRunWins() {
        List<KeyValue> older = List.of(insert(9, 1, 1L, "older", 0));
        List<KeyValue> newer = List.of(insert(9, 1, 2L, "newer", 0));
        assertThat(merge(engine("deduplicate", Map.of()), true, List.of(older, newer)))
                .containsExactly(expected(9L, "+I", 1, 2L, "newer", 0));
        assertThat(merge(engine("deduplicate", Map.of()), true, List.of(newer, older)))
                .containsExactly(expected(9L, "+I", 1, 1L, "older", 0));
    }

    @Test
    void keepsTombstonesUnlessDroppingDeletes() {
        List<KeyValue> older = List.of(insert(1, 1, 1L, "a", 0), insert(2, 2, 1L, "b", 0));
        List<KeyValue> newer = List.of(delete(3, 1, 1L, "a", 0));
        MergeFunction dedup = engine("deduplicate", Map.of());
        assertThat(merge(dedup, false, List.of(older, newer)))
                .containsExactly(
                        expected(3L, "-D", 1, 1L, "a", 0), expected(2L, "+I", 2, 1L, "b", 0));
        assertThat(merge(dedup, true, List.of(older, newer)))
                .containsExactly(expected(2L, "+I", 2, 1L, "b", 0));
        assertThat(merge(dedup, true, List.of(newer))).isEmpty();
    }

    @Test
    void feedsSeveralVersionsOfAKeyFromOneRunInSequenceOrder() {
        // Runs straight from a sort buffer hold several versions per key, interleaved by sequence
        // with the other run's versions; partial-update keeps references to all of them, which
        // the reusing iterators would corrupt if the merge did not copy.
        List<KeyValue> older =
                List.of(
                        insert(1, 1, 1L, null, null),
                        insert(4, 1, null, "d", null),
                        insert(5, 2, 5L, "x", 5));
        List<KeyValue> newer =
                List.of(
                        insert(2, 1, null, "b", null),
                        insert(3, 1, null, null, 3),
                        insert(6, 1, 6L, null, null));
        assertThat(merge(engine("partial-update", Map.of()), true, List.of(older, newer)))
                .containsExactly(
                        expected(6L, "+I", 1, 6L, "d", 3), expected(5L, "+I", 2, 5L, "x", 5));
    }

    @Test
    void handlesEmptyRunsAndNoRuns() {
        MergeFunction dedup = engine("deduplicate", Map.of());
        assertThat(merge(dedup, true, List.of())).isEmpty();
        assertThat(
                        merge(
                                dedup,
                                true,
                                List.of(List.of(), List.of(insert(1, 1, 1L, "a", 0)), List.of())))
                .containsExactly(expected(1L, "+I", 1, 1L, "a", 0));
        MergeIterator empty = new MergeIterator(List.of(), KEYS, dedup, true);
        assertThatThrownBy(empty::next)
                .isInstanceOf(NoSuchElementException.class)
                .hasMessage("All 0 sorted runs are merged");
    }
}
