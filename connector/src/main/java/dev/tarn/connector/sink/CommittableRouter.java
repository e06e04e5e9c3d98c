package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The sink's pre-commit step, on the committer's subtask: stamps each committable with the
 * checkpoint id Flink recorded for it (writers cannot know it when they prepare a commit; the id is
 * the snapshot's commit identifier, by which a restarted job recognizes what it already committed),
 * and records the table's ledger of prepared files (SPEC.md, "Pending commits") while each
 * checkpoint is taken.
 *
 * <p>It mirrors what the committer after it carries: the committables of every checkpoint it has
 * seen that no completed checkpoint has committed yet. When checkpoint N's barrier passes, the
 * committables of N have all arrived (they precede the barrier), and if N prepared files, the
 * user's record is replaced by one listing every carried checkpoint's files, before this operator's
 * snapshot returns: checkpoint N completes only with its record written, so the committer's commit
 * never waits for the ledger, and a record that cannot be written fails the checkpoint, leaving its
 * files to the next one. A completed checkpoint drops what it committed (the committer, after this
 * operator in the chain, is notified first; a commit that fails fails the job before this operator
 * hears of it). After a restore, the committer has committed what it restored before this operator
 * starts, so nothing needs to be kept in state. A bounded input's last committables are recorded
 * when the input ends, before the committer commits them.
 */
final class CommittableRouter extends AbstractStreamOperator<CommittableMessage<TarnCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<TarnCommittable>, CommittableMessage<TarnCommittable>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final Table table;

    private transient PendingCommits ledger;

    /** Per commit user, the messages of each checkpoint not yet committed, by checkpoint. */
    private transient Map<String, SortedMap<Long, List<CommitMessage>>> carried;

    /** The users whose checkpoints since the last record prepared files. */
    private transient Set<String> unrecorded;

    /** The id of the last checkpoint whose barrier passed, or -1. */
    private transient long lastBarrier;

    CommittableRouter(Table table) {
        this.table = table;
    }

    @Override
    public void open() throws Exception {
        super.open();
        ledger = table.pendingCommits();
        carried = new HashMap<>();
        unrecorded = new HashSet<>();
        lastBarrier = -1;
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<TarnCommittable>> element)
            throws Exception {
        CommittableMessage<TarnCommittable> message = element.getValue();
        if (message instanceof CommittableWithLineage<TarnCommittable> lineage) {
            long checkpoint = lineage.getCheckpointId();
            TarnCommittable c = lineage.getCommittable();
            TarnCommittable tagged =
                    new TarnCommittable(c.user(), checkpoint, c.messages(), c.watermark());
            String user = c.user().name();
            carried.computeIfAbsent(user, u -> new TreeMap<>())
                    .computeIfAbsent(checkpoint, id -> new ArrayList<>())
                    .addAll(c.messages());
            if (!c.messages().isEmpty()) {
                unrecorded.add(user);
                if (checkpoint <= lastBarrier) {
                    // Behind its barrier (an unaligned checkpoint): recorded now, as the committer
                    // may commit it with the next completed checkpoint.
                    record(user);
                }
            }
            output.collect(element.replace(lineage.map(x -> tagged)));
        } else {
            output.collect(element);
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        lastBarrier = context.getCheckpointId();
        recordAll();
    }

    @Override
    public void endInput() {
        recordAll();
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        for (SortedMap<Long, List<CommitMessage>> byCheckpoint : carried.values()) {
            byCheckpoint.headMap(checkpointId + 1).clear();
        }
    }

    private void recordAll() {
        for (String user : List.copyOf(unrecorded)) {
            record(user);
        }
    }

    /** Replaces {@code user}'s record by one of everything it carries. */
    private void record(String user) {
        SortedMap<Long, List<CommitMessage>> byCheckpoint = carried.get(user);
        ledger.record(user, byCheckpoint.lastKey(), byCheckpoint, System.currentTimeMillis());
        unrecorded.remove(user);
    }
}
