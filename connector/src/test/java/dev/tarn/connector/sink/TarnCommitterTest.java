package dev.tarn.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.write.CommitMessage;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer publishes a checkpoint's committables as one snapshot, and a committable restored
 * into another job (another committer, even of another commit user) is never published twice.
 */
class TarnCommitterTest {

    @TempDir File dir;
    private Table table;

    @BeforeEach
    void setUp() {
        table = IdTable.create(dir);
    }

    private List<CommitMessage> rows(long... ids) throws Exception {
        return IdTable.rows(table, ids);
    }

    @Test
    void aRestoredCommittableOfAnEarlierJobIsNotPublishedAgain() throws Exception {
        CommitUser earlier = new CommitUser("job-1", System.currentTimeMillis());
        TarnCommittable checkpoint5 = new TarnCommittable(earlier, 5, rows(1, 2));
        FakeCommitRequest first = new FakeCommitRequest(checkpoint5);
        new TarnCommitter(table, null).commit(List.of(first));
        assertThat(table.metadata().latestSnapshotId()).hasValue(1);
        assertThat(first.alreadyCommitted).isFalse();

        // A new job restored from a savepoint that still held checkpoint 5's committable.
        byte[] saved = new TarnCommittableSerializer().serialize(checkpoint5);
        TarnCommittableSerializer serializer = new TarnCommittableSerializer();
        TarnCommittable restored = serializer.deserialize(serializer.getVersion(), saved);
        assertThat(restored.user()).isEqualTo(earlier);
        FakeCommitRequest retry = new FakeCommitRequest(restored);
        new TarnCommitter(table, null).commit(List.of(retry));
        assertThat(retry.alreadyCommitted).isTrue();
        assertThat(table.metadata().latestSnapshotId()).hasValue(1);
        assertThat(table.metadata().latestSnapshot().orElseThrow().records().total()).isEqualTo(2);

        CommitUser later = new CommitUser("job-2", System.currentTimeMillis());
        new TarnCommitter(table, null)
                .commit(List.of(new FakeCommitRequest(new TarnCommittable(later, 1, rows(3)))));
        assertThat(table.metadata().latestSnapshot().orElseThrow().records().total()).isEqualTo(3);
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().user())
                .isEqualTo("job-2");
    }

    @Test
    void allCommittablesOfACheckpointBecomeOneSnapshot() throws Exception {
        CommitUser user = new CommitUser("job", System.currentTimeMillis());
        new TarnCommitter(table, null)
                .commit(
                        List.of(
                                new FakeCommitRequest(new TarnCommittable(user, 7, rows(1))),
                                new FakeCommitRequest(new TarnCommittable(user, 7, rows(2, 3))),
                                new FakeCommitRequest(new TarnCommittable(user, 7, List.of()))));
        assertThat(table.metadata().latestSnapshotId()).hasValue(1);
        assertThat(table.metadata().latestSnapshot().orElseThrow().records().total()).isEqualTo(3);
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().identifier())
                .isEqualTo(7);
    }

    @Test
    void aRestoredJobDropsTheEarlierJobsAbandonedRecordAndKeepsItsOwnPendingOne() throws Exception {
        CommitUser earlier = new CommitUser("job-1", 1L);
        CommitUser own = new CommitUser("job-2", 2L);
        // The earlier job stopped with checkpoint 8 recorded; the new job restored checkpoint 7.
        List<CommitMessage> seven = rows(1);
        table.pendingCommits().record("job-1", 8, new TreeMap<>(Map.of(8L, rows(2))), 1L);
        TarnCommitter committer =
                new TarnCommitter(
                        table,
                        own,
                        null,
                        new CommitterMetrics(
                                new org.apache.flink.metrics.groups.UnregisteredMetricsGroup()));
        committer.commit(List.of(new FakeCommitRequest(new TarnCommittable(earlier, 7, seven))));
        assertThat(table.pendingCommits().all())
                .as(
                        "the earlier job's abandoned record, dropped once its restored commit published")
                .isEmpty();

        // The job's own checkpoint 10 is published; 11 is recorded, complete but not committed.
        table.pendingCommits().record("job-2", 10, new TreeMap<>(Map.of(10L, rows(3))), 3L);
        committer.commit(List.of(new FakeCommitRequest(new TarnCommittable(own, 10, rows(3)))));
        table.pendingCommits().record("job-2", 11, new TreeMap<>(Map.of(11L, rows(4))), 4L);
        committer.close();
        assertThat(table.pendingCommits().all())
                .as("a record of a checkpoint after the last publish outlives the committer")
                .singleElement()
                .satisfies(r -> assertThat(r.checkpoint()).isEqualTo(11));
    }
}
