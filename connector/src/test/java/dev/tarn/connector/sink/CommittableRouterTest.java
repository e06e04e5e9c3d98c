package dev.tarn.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.ledger.PendingCommit;
import dev.tarn.format.write.CommitMessage;
import java.io.File;
import java.nio.file.Files;
import java.util.List;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's router records the ledger while each checkpoint is taken: every file the committer
 * after it carries is recorded before the checkpoint can complete, a checkpoint that prepared
 * nothing writes nothing, a completed checkpoint drops what it committed, a committable behind its
 * barrier is recorded at once, the end of a bounded input records what is left, and each
 * committable leaves stamped with its checkpoint id.
 */
class CommittableRouterTest {

    private static final CommitUser USER = new CommitUser("job-1", 1L);

    @TempDir File dir;
    private Table table;
    private OneInputStreamOperatorTestHarness<
                    CommittableMessage<TarnCommittable>, CommittableMessage<TarnCommittable>>
            harness;

    @BeforeEach
    void setUp() throws Exception {
        table = IdTable.create(dir);
        harness = new OneInputStreamOperatorTestHarness<>(new CommittableRouter(table));
        harness.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private List<CommitMessage> rows(long... ids) throws Exception {
        return IdTable.rows(table, ids);
    }

    /** A writer's committable of {@code checkpoint}, as it leaves the writer (id not yet set). */
    private void arrive(long checkpoint, List<CommitMessage> messages) throws Exception {
        harness.processElement(
                new CommittableWithLineage<>(
                        new TarnCommittable(USER, -1, messages), checkpoint, 0),
                0L);
    }

    private PendingCommit record() {
        List<PendingCommit> all = table.pendingCommits().all();
        assertThat(all).as("records").hasSize(1);
        return all.get(0);
    }

    private java.nio.file.Path recordFile() {
        return dir.toPath().resolve("pending/" + USER.name());
    }

    @Test
    void eachCheckpointRecordsEveryCarriedFileBeforeItCanComplete() throws Exception {
        arrive(1, rows(1));
        assertThat(recordFile()).as("nothing recorded before the barrier").doesNotExist();
        harness.snapshot(1, 10L);
        assertThat(record().checkpoint()).isEqualTo(1);
        assertThat(record().committables().keySet()).containsExactly(1L);

        // Checkpoint 1's commit has not happened when checkpoint 2's barrier passes: carried.
        arrive(2, rows(2));
        harness.snapshot(2, 20L);
        assertThat(record().committables().keySet()).containsExactly(1L, 2L);
        assertThat(record().files())
                .hasSize(2)
                .allMatch(f -> Files.exists(dir.toPath().resolve(f)));

        // Both committed by checkpoint 2's completion; checkpoint 3 prepared nothing: no write.
        harness.notifyOfCompletedCheckpoint(2);
        long modified = Files.getLastModifiedTime(recordFile()).toMillis();
        Files.setLastModifiedTime(recordFile(), java.nio.file.attribute.FileTime.fromMillis(1000));
        arrive(3, List.of());
        harness.snapshot(3, 30L);
        assertThat(Files.getLastModifiedTime(recordFile()).toMillis())
                .as("an empty checkpoint leaves the record (written at %d) alone", modified)
                .isEqualTo(1000);

        arrive(4, rows(4));
        harness.snapshot(4, 40L);
        assertThat(record().checkpoint()).isEqualTo(4);
        assertThat(record().committables().keySet())
                .as("committed checkpoints are no longer carried")
                .containsExactly(3L, 4L);
        assertThat(record().committables().get(3L)).isEmpty();
    }

    @Test
    void aCommittableBehindItsBarrierIsRecordedAtOnce() throws Exception {
        arrive(1, rows(1));
        harness.snapshot(1, 10L);
        // As after an unaligned checkpoint: checkpoint 1's committable arrives after its barrier.
        arrive(1, rows(5));
        assertThat(record().committables().get(1L)).hasSize(2);
    }

    @Test
    void theEndOfABoundedInputRecordsWhatIsLeft() throws Exception {
        arrive(Long.MAX_VALUE, rows(1, 2));
        harness.endInput();
        assertThat(record().checkpoint()).isEqualTo(Long.MAX_VALUE);
        assertThat(record().files()).hasSize(1);
    }

    @Test
    void committablesLeaveStampedWithTheirCheckpointId() throws Exception {
        arrive(7, rows(1));
        assertThat(harness.extractOutputValues())
                .singleElement()
                .satisfies(
                        m ->
                                assertThat(
                                                ((CommittableWithLineage<TarnCommittable>) m)
                                                        .getCommittable()
                                                        .checkpointId())
                                        .isEqualTo(7));
    }

    @Test
    void aRecordThatCannotBeWrittenFailsTheCheckpointNamingTheTable() throws Exception {
        arrive(1, rows(1));
        // A file where the ledger's directory should be: the record cannot be written.
        Files.writeString(dir.toPath().resolve("pending"), "not a directory");
        assertThatThrownBy(() -> harness.snapshot(1, 10L))
                .hasStackTraceContaining("Cannot record pending commit 1 of commit user job-1")
                .hasStackTraceContaining("db.t");
    }
}
