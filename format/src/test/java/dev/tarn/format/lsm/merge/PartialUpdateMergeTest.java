package dev.tarn.format.lsm.merge;

import static dev.tarn.format.lsm.MergeTestSupport.engine;
import static dev.tarn.format.lsm.MergeTestSupport.expected;
import static dev.tarn.format.lsm.MergeTestSupport.merge;
import static dev.tarn.format.lsm.TestRows.delete;
import static dev.tarn.format.lsm.TestRows.insert;
import static dev.tarn.format.lsm.TestRows.kv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class PartialUpdateMergeTest {

    @Test
    void nonNullFieldsOfNewerVersionsOverwrite() {
        MergeFunction partial = engine("partial-update", Map.of());
        assertThat(
                        merge(
                                partial,
                                insert(1, 7, 1L, "x", null),
                                kv(2, RowKind.UPDATE_AFTER, 7, null, "y", 3),
                                insert(3, 7, 5L, null, null)))
                .isEqualTo(expected(3L, "+I", 7, 5L, "y", 3));
        assertThat(merge(partial, insert(4, 8, null, null, null)))
                .as("the state of the previous key is gone")
                .isEqualTo(expected(4L, "+I", 8, null, null, null));
    }

    @Test
    void refusesRetractionsNamingTheKeyAndTheWayOut() {
        MergeFunction partial = engine("partial-update", Map.of());
        assertThatThrownBy(() -> merge(partial, insert(1, 7, 1L, "x", 1), delete(2, 7, 1L, "x", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Merge engine 'partial-update' cannot apply the DELETE of key [7]"
                                + " (sequence 2): a partial row cannot be retracted; set"
                                + " 'ignore-delete'"
                                + " = 'true' to drop retractions");
    }

    @Test
    void ignoreDeleteDropsRetractions() {
        MergeFunction partial = engine("partial-update", Map.of("ignore-delete", "true"));
        assertThat(
                        merge(
                                partial,
                                insert(1, 7, 1L, "x", 1),
                                delete(2, 7, null, null, null),
                                kv(3, RowKind.UPDATE_BEFORE, 7, null, null, null),
                                insert(4, 7, null, "z", null)))
                .isEqualTo(expected(4L, "+I", 7, 1L, "z", 1));
        assertThat(merge(partial, delete(1, 7, 1L, "x", 1))).isNull();
    }

    @Test
    void sequenceFieldDecidesWhichValueIsNewer() {
        MergeFunction partial = engine("partial-update", Map.of("sequence.field", "c"));
        // The version with c = 20 arrives first but is newer than the one with c = 10.
        assertThat(merge(partial, insert(1, 7, 1L, "newer", 20), insert(2, 7, 2L, null, 10)))
                .isEqualTo(expected(1L, "+I", 7, 1L, "newer", 20));
    }
}
