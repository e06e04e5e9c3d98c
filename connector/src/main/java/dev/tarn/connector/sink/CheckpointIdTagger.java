package dev.tarn.connector.sink;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;

/**
 * Stamps each committable with the checkpoint id Flink recorded for it (writers cannot know it when
 * they prepare a commit). Summaries pass unchanged. The id is the snapshot's commit identifier, by
 * which a restarted job recognizes what it already committed.
 */
final class CheckpointIdTagger
        implements MapFunction<
                CommittableMessage<TarnCommittable>, CommittableMessage<TarnCommittable>> {

    @Override
    public CommittableMessage<TarnCommittable> map(CommittableMessage<TarnCommittable> message) {
        if (message instanceof CommittableWithLineage<TarnCommittable> lineage) {
            return lineage.map(
                    c ->
                            new TarnCommittable(
                                    c.user(),
                                    lineage.getCheckpointId(),
                                    c.messages(),
                                    c.watermark()));
        }
        return message;
    }
}
