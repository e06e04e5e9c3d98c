package dev.tarn.connector.sink;

import dev.tarn.format.write.CommitMessage;
import java.util.List;

/**
 * What one writer subtask of the job {@code user} prepared for one checkpoint (or, in batch, for
 * the whole input). Emitted even when empty, so the committer always learns that a checkpoint had
 * nothing to publish (an overwrite with no rows still clears its partitions).
 */
public record TarnCommittable(CommitUser user, long checkpointId, List<CommitMessage> messages) {

    public TarnCommittable {
        messages = List.copyOf(messages);
    }
}
