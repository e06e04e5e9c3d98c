package dev.tarn.connector.source.split;

import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A following reader's report to the enumerator, once as it starts, of the splits it restored from
 * its checkpoint (none if it started afresh). A restored enumerator drops the splits it still
 * counted in flight that no reader holds: they were read to their end after its own checkpoint and
 * before the readers', so their report of that never reached the checkpointed state.
 */
public record SplitsRestored(List<String> splitIds) implements SourceEvent {

    private static final long serialVersionUID = 1L;

    public SplitsRestored {
        splitIds = List.copyOf(splitIds);
    }
}
