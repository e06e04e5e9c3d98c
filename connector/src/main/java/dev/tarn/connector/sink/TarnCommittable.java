package dev.tarn.connector.sink;

import dev.tarn.format.write.CommitMessage;
import java.util.List;
import javax.annotation.Nullable;

/**
 * What one writer subtask of the job {@code user} prepared for one checkpoint (or, in batch, for
 * the whole input). Emitted even when empty, so the committer always learns that a checkpoint had
 * nothing to publish (an overwrite with no rows still clears its partitions) and how far the
 * writer's event time got.
 *
 * @param watermark the highest watermark the writer had received when it prepared the commit, or
 *     null if it had received none
 */
public record TarnCommittable(
        CommitUser user,
        long checkpointId,
        List<CommitMessage> messages,
        @Nullable Long watermark) {

    public TarnCommittable {
        messages = List.copyOf(messages);
    }

    /** A committable of a writer that has received no watermark. */
    public TarnCommittable(CommitUser user, long checkpointId, List<CommitMessage> messages) {
        this(user, checkpointId, messages, null);
    }
}
