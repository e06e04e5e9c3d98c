package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The merge engines by their option values, and what each one supports. */
class MergeEngineTest {

    @Test
    void parsesEachOptionValueAndDefaultsToDeduplicate() {
        assertThat(MergeEngine.keys())
                .containsExactly("deduplicate", "partial-update", "aggregation", "first-row");
        for (MergeEngine engine : MergeEngine.values()) {
            assertThat(MergeEngine.fromOption("db.t", engine.key())).isSameAs(engine);
        }
        assertThat(TableConfig.of("db.t", Map.of()).lsm().mergeEngine())
                .isSameAs(MergeEngine.DEDUPLICATE);
        assertThat(TableConfig.of("db.t", Map.of("merge-engine", "first-row")).lsm().mergeEngine())
                .isSameAs(MergeEngine.FIRST_ROW);
    }

    @Test
    void rejectsUnknownEnginesNamingTheOptionTheTableAndTheValue() {
        assertThatThrownBy(() -> MergeEngine.fromOption("db.t", "last-write-wins"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown merge engine 'last-write-wins' (option 'merge-engine') of table"
                                + " db.t; supported are [deduplicate, partial-update, aggregation,"
                                + " first-row]");
        assertThatThrownBy(() -> MergeEngine.fromOption("db.t", "Deduplicate"))
                .as("matched exactly, as the option has always been")
                .hasMessageStartingWith("Unknown merge engine 'Deduplicate'");
        assertThatThrownBy(() -> TableConfig.of("db.pk", Map.of("merge-engine", "latest")))
                .hasMessageStartingWith(
                        "Unknown merge engine 'latest' (option 'merge-engine') of table db.pk;");
    }

    @Test
    void eachEngineSaysWhatItSupports() {
        assertThat(supporting(MergeEngine::supportsDelete)).containsExactly("deduplicate");
        assertThat(supporting(MergeEngine::supportsUpdate))
                .containsExactly("deduplicate", "partial-update");
        assertThat(supporting(MergeEngine::needsUpdateBefore)).containsExactly("aggregation");
        assertThat(supporting(MergeEngine::picksWholeVersion))
                .containsExactly("deduplicate", "first-row");
    }

    private static List<String> supporting(Predicate<MergeEngine> capability) {
        return Arrays.stream(MergeEngine.values())
                .filter(capability)
                .map(MergeEngine::key)
                .toList();
    }
}
