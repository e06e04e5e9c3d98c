package dev.tarn.connector.source.enumerator;

import dev.tarn.format.snapshot.Consumers;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * A consumer's recorded position ({@code consumer-id}): the first snapshot not read whole as of
 * each checkpoint, recorded in the table once that checkpoint completes, so expiration keeps what a
 * restored job still needs and a new job resumes there. Recording runs on the coordinator's worker
 * thread; a failure fails the enumerator with the consumer and the snapshot named.
 */
final class ConsumerPosition {

    private final Consumers consumers;
    private final String consumerId;
    private final NavigableMap<Long, Long> atCheckpoint = new TreeMap<>();

    ConsumerPosition(Consumers consumers, String consumerId) {
        this.consumers = consumers;
        this.consumerId = consumerId;
    }

    /** The position as of checkpoint {@code checkpointId}, taken. */
    void checkpointed(long checkpointId, long position) {
        atCheckpoint.put(checkpointId, position);
    }

    /** Records the position of {@code checkpointId}, which completed, and forgets older ones. */
    void completed(long checkpointId, SplitEnumeratorContext<?> context) {
        Long position = atCheckpoint.get(checkpointId);
        atCheckpoint.headMap(checkpointId, true).clear();
        if (position == null) {
            return;
        }
        context.callAsync(
                () -> {
                    consumers.record(consumerId, position, System.currentTimeMillis());
                    return position;
                },
                (recorded, error) -> {
                    if (error != null) {
                        throw new IllegalStateException(
                                String.format(
                                        "Cannot record consumer '%s' at snapshot %d: %s",
                                        consumerId, position, error.getMessage()),
                                error);
                    }
                });
    }
}
