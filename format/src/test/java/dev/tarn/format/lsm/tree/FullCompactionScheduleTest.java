package dev.tarn.format.lsm.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.run.SortedRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FullCompactionScheduleTest {

    private static final int LAST = 5;

    /** Which of {@code n} commits (1-based) a full compaction is due in; each due one is done. */
    private static List<Integer> dueCommits(FullCompactionSchedule schedule, int n, int endAt) {
        List<Integer> due = new ArrayList<>();
        for (int c = 1; c <= n; c++) {
            if (schedule.commit(c == endAt)) {
                due.add(c);
                schedule.done();
            }
        }
        return due;
    }

    @Test
    void everyDeltaCommitsOfTheWriter() {
        assertThat(dueCommits(new FullCompactionSchedule(3, false, LAST), 9, -1))
                .containsExactly(3, 6, 9);
        assertThat(dueCommits(new FullCompactionSchedule(0, false, LAST), 9, 9)).isEmpty();
    }

    @Test
    void aChangelogAlsoAtTheEndOfTheInput() {
        assertThat(dueCommits(new FullCompactionSchedule(3, true, LAST), 4, 4))
                .containsExactly(3, 4);
        assertThat(dueCommits(new FullCompactionSchedule(3, false, LAST), 4, 4)).containsExactly(3);
    }

    @Test
    void aCompactionThatCouldNotRunStaysDue() {
        FullCompactionSchedule schedule = new FullCompactionSchedule(2, false, LAST);
        assertThat(schedule.commit(false)).isFalse();
        assertThat(schedule.commit(false)).isTrue(); // not done: the writer was stale
        assertThat(schedule.commit(false)).isTrue();
        schedule.done();
        assertThat(schedule.commit(false)).isTrue(); // its own turn
        schedule.done();
        assertThat(schedule.commit(false)).isFalse();
    }

    @Test
    void aWriterStartedOnRowsBelowTheLastLevelCompactsAtItsFirstCommit() {
        SortedRun top = new SortedRun(LAST, List.of());
        SortedRun level0 = new SortedRun(0, List.of());
        FullCompactionSchedule below = new FullCompactionSchedule(3, true, LAST);
        below.started(List.of(level0, top));
        assertThat(dueCommits(below, 4, -1)).containsExactly(1, 3);

        FullCompactionSchedule compacted = new FullCompactionSchedule(3, true, LAST);
        compacted.started(List.of(top));
        compacted.started(List.of());
        assertThat(dueCommits(compacted, 4, -1)).containsExactly(3);

        FullCompactionSchedule withoutChangelog = new FullCompactionSchedule(3, false, LAST);
        withoutChangelog.started(List.of(level0, top));
        assertThat(dueCommits(withoutChangelog, 4, -1)).containsExactly(3);
    }
}
