package dev.tarn.format.lsm.merge;

import static dev.tarn.format.lsm.MergeTestSupport.engine;
import static dev.tarn.format.lsm.MergeTestSupport.expected;
import static dev.tarn.format.lsm.MergeTestSupport.merge;
import static dev.tarn.format.lsm.TestRows.delete;
import static dev.tarn.format.lsm.TestRows.insert;
import static dev.tarn.format.lsm.TestRows.kv;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class DeduplicateMergeTest {

    @Test
    void theNewestVersionWins() {
        MergeFunction dedup = engine("deduplicate", Map.of());
        assertThat(merge(dedup, insert(1, 7, 10L, "x", 1), insert(2, 7, null, "y", null)))
                .isEqualTo(expected(2L, "+I", 7, null, "y", null));
        assertThat(merge(dedup, insert(5, 7, 1L, "x", 1)))
                .isEqualTo(expected(5L, "+I", 7, 1L, "x", 1));
        assertThat(merge(dedup)).as("no version, no result").isNull();
    }

    @Test
    void aNewestRetractionIsReturnedAsATombstone() {
        MergeFunction dedup = engine("deduplicate", Map.of());
        assertThat(merge(dedup, insert(1, 7, 10L, "x", 1), delete(2, 7, 10L, "x", 1)))
                .isEqualTo(expected(2L, "-D", 7, 10L, "x", 1));
        assertThat(
                        merge(
                                        dedup,
                                        insert(1, 7, 10L, "x", 1),
                                        kv(2, RowKind.UPDATE_BEFORE, 7, 10L, "x", 1))
                                .get(1))
                .isEqualTo("-U");
        assertThat(merge(dedup, delete(1, 7, 10L, "x", 1), insert(2, 7, 3L, "z", 1)))
                .as("an insert after a delete revives the key")
                .isEqualTo(expected(2L, "+I", 7, 3L, "z", 1));
    }

    @Test
    void ignoreDeleteDropsRetractionsSoTheOlderRowStays() {
        MergeFunction dedup = engine("deduplicate", Map.of("ignore-delete", "true"));
        assertThat(merge(dedup, insert(1, 7, 10L, "x", 1), delete(2, 7, 10L, "x", 1)))
                .isEqualTo(expected(1L, "+I", 7, 10L, "x", 1));
        assertThat(merge(dedup, delete(2, 7, 10L, "x", 1))).isNull();
    }

    @Test
    void sequenceFieldOrdersVersionsBeforeArrival() {
        MergeFunction dedup = engine("deduplicate", Map.of("sequence.field", "c"));
        // Arrival order 1, 2, 3 but c says the first one is the newest.
        assertThat(
                        merge(
                                dedup,
                                insert(1, 7, 1L, "new", 30),
                                insert(2, 7, 2L, "old", 10),
                                insert(3, 7, 3L, "mid", 20)))
                .isEqualTo(expected(1L, "+I", 7, 1L, "new", 30));
        assertThat(merge(dedup, insert(1, 7, 1L, "x", 30), delete(2, 7, 2L, "x", 10)))
                .as("a late delete with an older sequence field loses")
                .isEqualTo(expected(1L, "+I", 7, 1L, "x", 30));
        assertThat(merge(dedup, insert(1, 7, 1L, "x", 5), insert(2, 7, 2L, "y", 5)))
                .as("equal sequence field: arrival decides")
                .isEqualTo(expected(2L, "+I", 7, 2L, "y", 5));
        assertThat(merge(dedup, insert(1, 7, 1L, "x", 5), insert(2, 7, 2L, "y", null)))
                .as("null orders first")
                .isEqualTo(expected(1L, "+I", 7, 1L, "x", 5));
    }

    @Test
    void sequenceFieldMayNameSeveralColumns() {
        MergeFunction dedup = engine("deduplicate", Map.of("sequence.field", "c, a"));
        assertThat(merge(dedup, insert(1, 7, 9L, "x", 5), insert(2, 7, 3L, "y", 5)))
                .isEqualTo(expected(1L, "+I", 7, 9L, "x", 5));
    }
}
