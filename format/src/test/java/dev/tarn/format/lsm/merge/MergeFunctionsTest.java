package dev.tarn.format.lsm.merge;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static dev.tarn.format.lsm.MergeTestSupport.engine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.MergeEngine;
import java.util.Map;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class MergeFunctionsTest {

    @Test
    void buildsEachEngineWithItsOptionWrappers() {
        assertThat(MergeFunctions.create(MergeEngine.DEDUPLICATE, TABLE, KEY, Map.of()))
                .isInstanceOf(DeduplicateMergeFunction.class);
        assertThat(engine("partial-update", Map.of()))
                .isInstanceOf(PartialUpdateMergeFunction.class);
        assertThat(engine("aggregation", Map.of())).isInstanceOf(AggregateMergeFunction.class);
        assertThat(engine("first-row", Map.of())).isInstanceOf(FirstRowMergeFunction.class);
        assertThat(engine("deduplicate", Map.of("ignore-delete", "TRUE")))
                .isInstanceOf(IgnoreDeleteMergeFunction.class);
        assertThat(engine("deduplicate", Map.of("sequence.field", "c")))
                .isInstanceOf(SequenceFieldMergeFunction.class);
        assertThat(engine("deduplicate", Map.of("ignore-delete", "false", "bucket", "4")))
                .as("unrelated options are ignored")
                .isInstanceOf(DeduplicateMergeFunction.class);
    }

    @Test
    void rejectsAggregationOptionsOnOtherEngines() {
        assertThatThrownBy(
                        () -> engine("deduplicate", Map.of("fields.a.aggregate-function", "sum")))
                .hasMessage(
                        "Option 'fields.a.aggregate-function' only applies to merge-engine"
                                + " 'aggregation', not 'deduplicate'");
        assertThatThrownBy(
                        () ->
                                engine(
                                        "partial-update",
                                        Map.of("fields.default-aggregate-function", "sum")))
                .hasMessageContaining("'fields.default-aggregate-function' only applies");
    }

    @Test
    void rejectsFieldOptionsForUnknownColumns() {
        assertThatThrownBy(
                        () -> engine("aggregation", Map.of("fields.amount.ignore-retract", "true")))
                .hasMessage(
                        "Option 'fields.amount.ignore-retract' names no column of the table;"
                                + " columns are [k, a, b, c]");
    }

    @Test
    void rejectsBadSequenceFieldsAndBooleans() {
        assertThatThrownBy(() -> engine("deduplicate", Map.of("sequence.field", "c,ts")))
                .hasMessage(
                        "Option 'sequence.field' = 'c,ts' names no column 'ts'; columns are"
                                + " [k, a, b, c]");
        RowType withArray = RowType.of(new IntType(false), new ArrayType(new IntType()));
        assertThatThrownBy(
                        () ->
                                MergeFunctions.create(
                                        MergeEngine.DEDUPLICATE,
                                        withArray,
                                        new int[] {0},
                                        Map.of("sequence.field", "f1")))
                .hasMessage(
                        "Option 'sequence.field' names column 'f1' of type ARRAY<INT>,"
                                + " which cannot order versions");
        assertThatThrownBy(() -> engine("deduplicate", Map.of("ignore-delete", "yes")))
                .hasMessage("Option 'ignore-delete' must be 'true' or 'false', got 'yes'");
        assertThatThrownBy(() -> engine("aggregation", Map.of("fields.a.ignore-retract", "1")))
                .hasMessage("Option 'fields.a.ignore-retract' must be 'true' or 'false', got '1'");
    }
}
