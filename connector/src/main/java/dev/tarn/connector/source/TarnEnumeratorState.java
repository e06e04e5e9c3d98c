package dev.tarn.connector.source;

import java.util.List;
import java.util.Map;

/**
 * What a Tarn enumerator checkpoints: the splits it has not assigned yet and, when it follows the
 * table, the next snapshot to plan and the splits it assigned that readers have not reported done
 * (with their snapshot ids), so that a consumer's recorded position never passes a split still
 * being read.
 *
 * @param nextSnapshotId the next snapshot to plan, or -1 for a read that follows nothing
 * @param inFlight assigned splits not reported finished, by split id, to their snapshot id
 */
public record TarnEnumeratorState(
        long nextSnapshotId, List<TarnSplit> pending, Map<String, Long> inFlight) {

    public TarnEnumeratorState {
        pending = List.copyOf(pending);
        inFlight = Map.copyOf(inFlight);
    }

    static TarnEnumeratorState bounded(List<TarnSplit> pending) {
        return new TarnEnumeratorState(-1, pending, Map.of());
    }
}
