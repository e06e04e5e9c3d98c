package dev.tarn.format.lsm.compaction;

import dev.tarn.format.schema.LsmOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;

/**
 * Picks which sorted runs of a bucket to compact, in the universal style of RocksDB and Apache
 * Paimon. Pure logic: it looks at the runs' levels and sizes only. Runs are given newest first:
 * level-0 runs (single files, newest first), then levels 1..maxLevel ascending, each at most once.
 *
 * <p>Nothing is picked while there are fewer than {@code T = num-sorted-run.compaction-trigger}
 * runs (or fewer than two). From {@code T} runs on, the first rule that applies wins:
 *
 * <ol>
 *   <li><b>Size amplification.</b> If the runs other than the oldest total at least {@code
 *       compaction.max-size-amplification-percent} % of the oldest run's size, compact all runs
 *       (the space the newer runs may waste is too large relative to the data).
 *   <li><b>Size ratio.</b> Starting with the newest run, keep adding the next older run while its
 *       size is at most {@code (100 + compaction.size-ratio)} % of the total picked so far; if that
 *       picked two runs or more, compact them.
 *   <li><b>Run count.</b> If there are more than {@code T} runs, pick the {@code n - T + 2} newest
 *       (so that {@code T - 1} runs remain), extended by the size-ratio rule, and compact them.
 *       (Paimon picks one run fewer, leaving {@code T}.)
 * </ol>
 *
 * <p>Output level: the maximum level if the unit includes the oldest run (then tombstones are
 * dropped); otherwise one below the level of the oldest run left out, and if that is level 0, which
 * holds only flushed files, the unit is extended to the next run at level 1 or above and takes its
 * level. {@link #pickFull} compacts everything to the maximum level on demand.
 */
public final class UniversalCompaction {

    private final int maxSizeAmplificationPercent;
    private final int sizeRatio;
    private final int trigger;
    private final int maxLevel;

    public UniversalCompaction(
            int maxSizeAmplificationPercent, int sizeRatio, int trigger, int maxLevel) {
        check(
                maxSizeAmplificationPercent >= 0,
                LsmOptions.COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT.key(),
                maxSizeAmplificationPercent,
                "at least 0");
        check(sizeRatio >= 0, LsmOptions.COMPACTION_SIZE_RATIO.key(), sizeRatio, "at least 0");
        check(
                trigger >= 1,
                LsmOptions.NUM_SORTED_RUN_COMPACTION_TRIGGER.key(),
                trigger,
                "at least 1");
        check(maxLevel >= 1, LsmOptions.NUM_LEVELS.key(), maxLevel + 1, "at least 2");
        this.maxSizeAmplificationPercent = maxSizeAmplificationPercent;
        this.sizeRatio = sizeRatio;
        this.trigger = trigger;
        this.maxLevel = maxLevel;
    }

    /** Reads the compaction options of {@link LsmOptions}, defaults for absent ones. */
    public static UniversalCompaction fromOptions(Map<String, String> options) {
        return new UniversalCompaction(
                integer(options, LsmOptions.COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT),
                integer(options, LsmOptions.COMPACTION_SIZE_RATIO),
                integer(options, LsmOptions.NUM_SORTED_RUN_COMPACTION_TRIGGER),
                integer(options, LsmOptions.NUM_LEVELS) - 1);
    }

    public int maxLevel() {
        return maxLevel;
    }

    /**
     * This picker for a writer that never compacts by itself ({@code write-only}): {@link #pick}
     * picks nothing, {@link #pickFull} still compacts fully when asked.
     */
    public UniversalCompaction manualOnly() {
        return new UniversalCompaction(
                maxSizeAmplificationPercent, sizeRatio, Integer.MAX_VALUE, maxLevel);
    }

    /** The compaction the rules above pick for {@code runs} (newest first), if any. */
    public Optional<CompactionUnit> pick(List<SortedRunInfo> runs) {
        checkRuns(runs);
        int n = runs.size();
        if (n < Math.max(trigger, 2)) {
            return Optional.empty();
        }
        long newer = 0;
        for (int i = 0; i < n - 1; i++) {
            newer += runs.get(i).sizeBytes();
        }
        if (newer * 100 >= (long) maxSizeAmplificationPercent * runs.get(n - 1).sizeBytes()) {
            return Optional.of(unit(runs, n));
        }
        int bySizeRatio = extendBySizeRatio(runs, 1);
        if (bySizeRatio > 1) {
            return Optional.of(unit(runs, bySizeRatio));
        }
        if (n > trigger) {
            return Optional.of(unit(runs, extendBySizeRatio(runs, n - trigger + 2)));
        }
        return Optional.empty();
    }

    /** Everything into one run at the maximum level; empty if that is already the case. */
    public Optional<CompactionUnit> pickFull(List<SortedRunInfo> runs) {
        return pickFull(runs, false);
    }

    /**
     * As {@link #pickFull(List)}, but with {@code rewrite} (its files have rows deletion vectors
     * delete, to be dropped) also one run at the maximum level, rewritten.
     */
    public Optional<CompactionUnit> pickFull(List<SortedRunInfo> runs, boolean rewrite) {
        checkRuns(runs);
        if (runs.isEmpty() || (!rewrite && runs.size() == 1 && runs.get(0).level() == maxLevel)) {
            return Optional.empty();
        }
        return Optional.of(unit(runs, runs.size()));
    }

    /** Grows a pick of the {@code count} newest runs while the next is small enough. */
    private int extendBySizeRatio(List<SortedRunInfo> runs, int count) {
        long picked = 0;
        for (int i = 0; i < count; i++) {
            picked += runs.get(i).sizeBytes();
        }
        while (count < runs.size()
                && runs.get(count).sizeBytes() * 100 <= picked * (100 + sizeRatio)) {
            picked += runs.get(count++).sizeBytes();
        }
        return count;
    }

    private CompactionUnit unit(List<SortedRunInfo> runs, int count) {
        int outputLevel =
                count == runs.size() ? maxLevel : Math.max(0, runs.get(count).level() - 1);
        if (outputLevel == 0) {
            while (count < runs.size()) {
                int level = runs.get(count++).level();
                if (level > 0) {
                    outputLevel = level;
                    break;
                }
            }
        }
        boolean all = count == runs.size();
        return new CompactionUnit(count, all ? maxLevel : outputLevel, all);
    }

    private void checkRuns(List<SortedRunInfo> runs) {
        int previous = 0;
        for (SortedRunInfo run : runs) {
            int level = run.level();
            if (level > maxLevel || level < previous || (level > 0 && level == previous)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Sorted runs must come newest first, level-0 runs then distinct"
                                        + " levels ascending up to %d, got levels %s",
                                maxLevel,
                                runs.stream()
                                        .map(r -> String.valueOf(r.level()))
                                        .collect(Collectors.joining(", ", "[", "]"))));
            }
            previous = level;
        }
    }

    private static void check(boolean valid, String option, int value, String requirement) {
        if (!valid) {
            throw new IllegalArgumentException(
                    "Option '" + option + "' must be " + requirement + ", got " + value);
        }
    }

    private static int integer(Map<String, String> options, ConfigOption<Integer> option) {
        String key = option.key();
        String value = options.get(key);
        if (value == null) {
            return option.defaultValue();
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Option '" + key + "' must be an integer, got '" + value + "'", e);
        }
    }
}
