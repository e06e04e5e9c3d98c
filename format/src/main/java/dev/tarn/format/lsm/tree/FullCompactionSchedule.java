package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.run.SortedRun;
import java.util.List;

/**
 * When the writer of one bucket compacts it fully: every {@code full-compaction.delta-commits}
 * commits of the writer, and, with {@code changelog-producer} = {@code full-compaction}, also at
 * the end of a bounded input and at the first commit of a writer that starts (or is restored) on a
 * bucket whose rows are not all at the last level, since only full compactions bring rows to
 * streaming readers. A full compaction that falls due while the writer cannot compact (awaiting its
 * restore, or stale) stays due until it is done. Not thread-safe: the writer's thread uses it.
 */
final class FullCompactionSchedule {

    private final int every;
    private final boolean changelog;
    private final int lastLevel;
    private long commits;
    private boolean due;

    /**
     * @param every commits between full compactions, 0 for never
     * @param changelog whether full compactions write the table's changelog
     */
    FullCompactionSchedule(int every, boolean changelog, int lastLevel) {
        this.every = every;
        this.changelog = changelog;
        this.lastLevel = lastLevel;
    }

    static FullCompactionSchedule of(BucketTreeWriter.Setup setup) {
        return new FullCompactionSchedule(
                setup.fullCompactionEvery(),
                setup.changelog().kind() == ChangelogSetup.Kind.FULL_COMPACTION,
                setup.picker().maxLevel());
    }

    /** The writer starts on (or is restored to) {@code runs}, newest first. */
    void started(List<SortedRun> runs) {
        due |=
                changelog
                        && !runs.isEmpty()
                        && (runs.size() > 1 || runs.get(0).level() != lastLevel);
    }

    /**
     * Counts a commit of the writer.
     *
     * @param endOfInput the input ended (or the commit must wait for its compactions)
     * @return whether a full compaction is due in it
     */
    boolean commit(boolean endOfInput) {
        commits++;
        due |= every > 0 && commits % every == 0;
        due |= endOfInput && changelog;
        return due;
    }

    /** A full compaction was done. */
    void done() {
        due = false;
    }
}
