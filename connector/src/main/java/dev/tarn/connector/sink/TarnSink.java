package dev.tarn.connector.sink;

import dev.tarn.connector.TaskManagerDirectories;
import dev.tarn.format.Table;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * The Tarn Sink V2 sink. Topology:
 *
 * <pre>
 *   rows --> [writer 0..n-1] --committables--> global() --> [router 0] --> [committer 0] --> snapshot
 *            closes files at                   (all to one   records the    publishes one snapshot
 *            each barrier                       subtask)     ledger at      per completed
 *                                                            each barrier   checkpoint
 * </pre>
 *
 * Writers prepare files when the checkpoint barrier passes; the router records them in the table's
 * ledger before the checkpoint can complete; the committer publishes them only after Flink reports
 * the checkpoint complete. The pre-commit topology sends every committable to subtask 0, so each
 * checkpoint becomes exactly one snapshot.
 */
public final class TarnSink
        implements Sink<RowData>,
                SupportsCommitter<TarnCommittable>,
                SupportsPreCommitTopology<TarnCommittable, TarnCommittable> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final CommitUser commitUser;
    @Nullable private final OverwriteSpec overwrite;
    private final boolean checkpointed;

    /**
     * @param checkpointed the job takes checkpoints (writers start at the first one)
     */
    TarnSink(
            Table table,
            CommitUser commitUser,
            @Nullable OverwriteSpec overwrite,
            boolean checkpointed) {
        this.table = table;
        this.commitUser = commitUser;
        this.overwrite = overwrite;
        this.checkpointed = checkpointed;
    }

    @Override
    public CommittingSinkWriter<RowData, TarnCommittable> createWriter(WriterInitContext context) {
        table.warmUp();
        TarnSinkWriter writer =
                new TarnSinkWriter(
                        table,
                        commitUser,
                        overwrite != null,
                        checkpointed,
                        TaskManagerDirectories.of(context));
        writer.registerMetrics(context.metricGroup());
        return writer;
    }

    @Override
    public Committer<TarnCommittable> createCommitter(CommitterInitContext context) {
        return new TarnCommitter(
                table, commitUser, overwrite, new CommitterMetrics(context.metricGroup()));
    }

    @Override
    public SimpleVersionedSerializer<TarnCommittable> getCommittableSerializer() {
        return new TarnCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<TarnCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<TarnCommittable>> committables) {
        return committables
                .global()
                .transform(
                        "Tarn committable router",
                        committables.getType(),
                        new CommittableRouter(table));
    }

    @Override
    public SimpleVersionedSerializer<TarnCommittable> getWriteResultSerializer() {
        return new TarnCommittableSerializer();
    }
}
