package dev.tarn.catalog.compact;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.CommitMessageCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The single committer of a {@link CompactJob}: gathers the commit messages of every unit and, at
 * the end of its input, publishes them as one COMPACT snapshot through the commit seam's conflict
 * handling ({@link FullCompaction#publish}): a compaction whose input another writer replaced
 * meanwhile is dropped and its files deleted; a commit that cannot be made fails the job, leaving
 * the table as it was. Emits the one-line summary.
 */
final class CompactCommitOperator extends AbstractStreamOperator<String>
        implements OneInputStreamOperator<byte[], String>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final FullCompaction.Plan plan;

    /** The encoded messages received so far: checkpointed, should the job take checkpoints. */
    private transient ListState<byte[]> messages;

    CompactCommitOperator(Table table, FullCompaction.Plan plan) {
        this.table = table;
        this.plan = plan;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        messages =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "compactions",
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    }

    @Override
    public void processElement(StreamRecord<byte[]> element) throws Exception {
        messages.add(element.getValue());
    }

    @Override
    public void endInput() throws Exception {
        List<CommitMessage> all = new ArrayList<>();
        for (byte[] bytes : messages.get()) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                all.add(CommitMessageCodec.read(in));
            }
        }
        FullCompaction.Result result = table.maintenance().publishCompaction(plan, all);
        output.collect(new StreamRecord<>(result.summary()));
    }
}
