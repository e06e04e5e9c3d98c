package dev.tarn.format.lsm.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UniversalCompactionTest {

    /** The defaults: amplification 200%, size ratio 1%, trigger 5, max level 5. */
    private final UniversalCompaction compaction = UniversalCompaction.fromOptions(Map.of());

    /** Runs newest first from pairs of (level, size). */
    private static List<SortedRunInfo> runs(long... levelsAndSizes) {
        List<SortedRunInfo> runs = new ArrayList<>();
        for (int i = 0; i < levelsAndSizes.length; i += 2) {
            runs.add(new SortedRunInfo((int) levelsAndSizes[i], levelsAndSizes[i + 1]));
        }
        return runs;
    }

    @Test
    void picksNothingBelowTheTrigger() {
        assertThat(compaction.pick(runs(0, 100, 0, 100, 0, 100, 5, 1))).isEmpty();
        assertThat(compaction.pick(runs())).isEmpty();
    }

    @Test
    void sizeAmplificationCompactsEverythingToTheMaxLevel() {
        // 400 bytes over an oldest run of 200: exactly 200 %.
        assertThat(compaction.pick(runs(0, 100, 0, 100, 0, 100, 0, 100, 5, 200)))
                .contains(new CompactionUnit(5, 5, true));
        // Just below 200 % and no size ratio match: nothing yet.
        assertThat(compaction.pick(runs(0, 1, 0, 10, 0, 100, 0, 288, 5, 200))).isEmpty();
    }

    @Test
    void sizeRatioPicksNewestRunsOfSimilarSize() {
        // 1, 1, 1, 1 joins (each <= 101 % of the sum so far), 1000 does not.
        assertThat(compaction.pick(runs(0, 1, 0, 1, 0, 1, 0, 1, 5, 1000)))
                .contains(new CompactionUnit(4, 4, false));
        // 101 is exactly 101 % of 100; 300 is more than 101 % of 201. The output goes one level
        // above the oldest run left out.
        assertThat(compaction.pick(runs(0, 100, 0, 101, 2, 300, 3, 1000, 4, 100000)))
                .contains(new CompactionUnit(2, 1, false));
    }

    @Test
    void neverOutputsToLevelZeroButExtendsToTheNextLevelledRun() {
        // Size ratio picks the two 10s; the next run is at level 0, so the unit takes in level-0
        // runs up to the level-3 run and outputs at level 3.
        assertThat(compaction.pick(runs(0, 10, 0, 10, 0, 100, 3, 1000, 5, 100000)))
                .contains(new CompactionUnit(4, 3, false));
    }

    @Test
    void runCountCompactsEnoughNewestRunsToLeaveOneBelowTheTrigger() {
        List<SortedRunInfo> runs = runs(0, 1, 0, 10, 0, 100, 2, 1000, 3, 10000, 4, 100000);
        Optional<CompactionUnit> unit = compaction.pick(runs);
        // 6 runs, trigger 5: merging the 3 newest leaves 4 = trigger - 1 runs.
        assertThat(unit).contains(new CompactionUnit(3, 1, false));
        assertThat(runs.size() - unit.get().runCount() + 1).isEqualTo(4);
        // At exactly the trigger and no other rule, nothing.
        assertThat(compaction.pick(runs.subList(1, 6))).isEmpty();
    }

    @Test
    void runCountPicksAreExtendedBySizeRatio() {
        // The minimal 3 newest total 3; the fourth (3) is within 101 % of that and joins.
        assertThat(compaction.pick(runs(0, 1, 0, 1, 0, 1, 0, 3, 2, 1000, 3, 10000, 4, 100000)))
                .contains(new CompactionUnit(4, 1, false));
    }

    @Test
    void fullCompactionOnDemand() {
        assertThat(compaction.pickFull(runs(0, 1, 2, 1000)))
                .contains(new CompactionUnit(2, 5, true));
        assertThat(compaction.pickFull(runs(3, 1000))).contains(new CompactionUnit(1, 5, true));
        assertThat(compaction.pickFull(runs(5, 1000))).isEmpty();
        assertThat(compaction.pickFull(runs())).isEmpty();
    }

    @Test
    void readsAndValidatesOptions() {
        UniversalCompaction custom =
                UniversalCompaction.fromOptions(
                        Map.of(
                                "num-sorted-run.compaction-trigger", "2",
                                "compaction.max-size-amplification-percent", "50",
                                "compaction.size-ratio", "0",
                                "num-levels", "3"));
        assertThat(custom.maxLevel()).isEqualTo(2);
        assertThat(custom.pick(runs(0, 60, 2, 100))).contains(new CompactionUnit(2, 2, true));
        assertThatThrownBy(
                        () ->
                                UniversalCompaction.fromOptions(
                                        Map.of("compaction.size-ratio", "small")))
                .hasMessage("Option 'compaction.size-ratio' must be an integer, got 'small'");
        assertThatThrownBy(() -> UniversalCompaction.fromOptions(Map.of("num-levels", "1")))
                .hasMessage("Option 'num-levels' must be at least 2, got 1");
        assertThatThrownBy(
                        () ->
                                UniversalCompaction.fromOptions(
                                        Map.of("num-sorted-run.compaction-trigger", "0")))
                .hasMessage("Option 'num-sorted-run.compaction-trigger' must be at least 1, got 0");
    }

    @Test
    void rejectsRunsOutOfOrder() {
        assertThatThrownBy(() -> compaction.pick(runs(2, 1, 0, 1)))
                .hasMessage(
                        "Sorted runs must come newest first, level-0 runs then distinct"
                                + " levels ascending up to 5, got levels [2, 0]");
        assertThatThrownBy(() -> compaction.pick(runs(0, 1, 3, 1, 3, 1)))
                .hasMessageContaining("got levels [0, 3, 3]");
        assertThatThrownBy(() -> compaction.pick(runs(6, 1))).hasMessageContaining("up to 5");
        assertThatThrownBy(() -> new SortedRunInfo(-1, 0)).hasMessageContaining("got level -1");
    }
}
