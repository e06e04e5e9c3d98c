package dev.tarn.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.ContentForms;
import dev.tarn.format.Table;
import dev.tarn.format.write.CommitMessage;
import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writers' watermark on its way to the snapshot: each writer keeps the highest it received (but
 * the end of input's), its committable carries it through checkpoints, and the committer records
 * the lowest of one checkpoint's writers.
 */
class SinkWatermarkTest {

    @TempDir File dir;
    private Table table;
    private final CommitUser user = new CommitUser("job", System.currentTimeMillis());

    @BeforeEach
    void setUp() {
        table = IdTable.create(dir);
    }

    private List<CommitMessage> rows(long... ids) throws Exception {
        return IdTable.rows(table, ids);
    }

    private static TarnCommittable prepare(TarnSinkWriter writer) throws Exception {
        writer.flush(false);
        return writer.prepareCommit().iterator().next();
    }

    @Test
    void aWriterHandsOnTheHighestWatermarkButTheEndOfInputs() throws Exception {
        try (TarnSinkWriter writer = new TarnSinkWriter(table, user, false, false, dir.toPath())) {
            assertThat(prepare(writer).watermark()).as("none received").isNull();
            writer.writeWatermark(new Watermark(5_000));
            writer.writeWatermark(new Watermark(4_000));
            assertThat(prepare(writer).watermark()).isEqualTo(5_000L);
            writer.writeWatermark(new Watermark(Long.MAX_VALUE));
            assertThat(prepare(writer).watermark()).isEqualTo(5_000L);
        }
    }

    @Test
    void theCommittableCarriesTheWatermarkThroughACheckpoint() throws Exception {
        TarnCommittableSerializer serializer = new TarnCommittableSerializer();
        assertThat(serializer.getVersion()).isEqualTo(5);
        TarnCommittable with = new TarnCommittable(user, 4, rows(1, 2), 7_000L);
        TarnCommittable without = new TarnCommittable(user, 5, rows(3), null);

        assertThat(serializer.deserialize(5, serializer.serialize(with))).isEqualTo(with);
        assertThat(serializer.deserialize(5, serializer.serialize(without))).isEqualTo(without);
        // Version 2 is version 4 without each file's content and the watermark at its end.
        byte[] v3 =
                ContentForms.withoutContent(
                        ContentForms.withoutVectorCounts(serializer.serialize(with), with),
                        with.messages().stream().flatMap(m -> m.newFiles().stream()).toList());
        byte[] v2 = Arrays.copyOf(v3, v3.length - 1 - Long.BYTES);
        assertThat(serializer.deserialize(2, v2))
                .isEqualTo(new TarnCommittable(user, 4, with.messages(), null));
    }

    @Test
    void theSnapshotRecordsTheLowestWatermarkOfTheCheckpointsWriters() throws Exception {
        TarnCommitter committer = new TarnCommitter(table, null);
        committer.commit(
                List.of(
                        new FakeCommitRequest(new TarnCommittable(user, 1, rows(1), 5_000L)),
                        new FakeCommitRequest(new TarnCommittable(user, 1, rows(2), 3_000L)),
                        new FakeCommitRequest(new TarnCommittable(user, 1, List.of(), 4_000L))));
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().watermark())
                .isEqualTo(3_000L);

        // A writer without a watermark yet: no promise for the checkpoint; the table keeps its.
        committer.commit(
                List.of(
                        new FakeCommitRequest(new TarnCommittable(user, 2, rows(3), 9_000L)),
                        new FakeCommitRequest(new TarnCommittable(user, 2, rows(4), null))));
        assertThat(table.metadata().latestSnapshotId()).hasValue(2);
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().watermark())
                .isEqualTo(3_000L);

        // A retried earlier checkpoint in the same commit is behind the latest one's writers.
        committer.commit(
                List.of(
                        new FakeCommitRequest(new TarnCommittable(user, 3, rows(5), 6_000L)),
                        new FakeCommitRequest(new TarnCommittable(user, 4, rows(6), 8_000L)),
                        new FakeCommitRequest(new TarnCommittable(user, 4, List.of(), 7_000L))));
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().identifier())
                .isEqualTo(4);
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().watermark())
                .isEqualTo(7_000L);
    }

    @Test
    void aCheckpointWithoutRowsPublishesTheWatermarkOnlyWhenItAdvances() throws Exception {
        TarnCommitter committer = new TarnCommitter(table, null);
        committer.commit(
                List.of(new FakeCommitRequest(new TarnCommittable(user, 1, rows(1), 1_000L))));
        committer.commit(
                List.of(new FakeCommitRequest(new TarnCommittable(user, 2, List.of(), 2_000L))));
        assertThat(table.metadata().latestSnapshotId()).hasValue(2);
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().watermark())
                .isEqualTo(2_000L);
        assertThat(table.metadata().latestSnapshot().orElseThrow().records().delta()).isZero();

        FakeCommitRequest idle =
                new FakeCommitRequest(new TarnCommittable(user, 3, List.of(), 2_000L));
        committer.commit(List.of(idle));
        assertThat(table.metadata().latestSnapshotId()).hasValue(2);
    }
}
