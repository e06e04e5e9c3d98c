package dev.tarn.format.commit;

import dev.tarn.format.manifest.Partition;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import java.util.function.Predicate;
import javax.annotation.Nullable;

/**
 * What one commit publishes: the files its writers prepared ({@link CommitMessage}s), under one
 * identifier (in a streaming job, the checkpoint id). A commit user's identifiers grow, so a
 * snapshot of the user with this identifier or a later one means the commit is published.
 *
 * @param watermark the writers' event-time watermark at the commit, or null if they have none
 * @param overwrite which partitions the messages' files replace (INSERT OVERWRITE, a dropped
 *     partition, TRUNCATE), or null for a commit that adds rows (and compacts)
 */
public record CommitRequest(
        long identifier,
        List<CommitMessage> messages,
        @Nullable Long watermark,
        @Nullable Predicate<Partition> overwrite) {

    public CommitRequest {
        messages = List.copyOf(messages);
    }

    /** A commit that adds {@code messages}' rows and publishes their compactions. */
    public static CommitRequest of(long identifier, List<CommitMessage> messages) {
        return new CommitRequest(identifier, messages, null, null);
    }

    /** This commit, recording the writers' {@code watermark} (null: none). */
    public CommitRequest withWatermark(@Nullable Long watermark) {
        return new CommitRequest(identifier, messages, watermark, overwrite);
    }

    /** This commit, replacing the rows of the partitions {@code scope} selects. */
    public CommitRequest overwriting(Predicate<Partition> scope) {
        return new CommitRequest(identifier, messages, watermark, scope);
    }

    /** The messages that only add files. */
    List<CommitMessage> appends() {
        return messages.stream().filter(m -> m.deletedFiles().isEmpty()).toList();
    }

    /** The messages that replace files: compactions. */
    List<CommitMessage> compactions() {
        return messages.stream().filter(m -> !m.deletedFiles().isEmpty()).toList();
    }
}
