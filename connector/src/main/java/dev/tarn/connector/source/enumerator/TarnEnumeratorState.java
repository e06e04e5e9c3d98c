package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.TarnSplit;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What a Tarn enumerator checkpoints: the splits it has not assigned yet and, when it follows the
 * table, the next snapshot to plan, the splits it assigned that readers have not reported done
 * (with their snapshot ids), so that a consumer's recorded position never passes a split still
 * being read, and the table's watermark ({@link TableWatermarks}), so that a restored read of an
 * idle table still tells its readers.
 *
 * @param nextSnapshotId the next snapshot to plan, or -1 for a read that follows nothing
 * @param inFlight assigned splits not reported finished, by split id, to their snapshot id
 * @param watermark the table's watermark, or null if it has none (or the read none)
 * @param reported for a declared watermark: the lowest watermark readers reported for the finished
 *     splits of each snapshot not read whole yet, by snapshot id
 */
public record TarnEnumeratorState(
        long nextSnapshotId,
        List<TarnSplit> pending,
        Map<String, Long> inFlight,
        @Nullable Long watermark,
        Map<Long, Long> reported) {

    public TarnEnumeratorState {
        pending = List.copyOf(pending);
        inFlight = Map.copyOf(inFlight);
        reported = Map.copyOf(reported);
    }

    static TarnEnumeratorState bounded(List<TarnSplit> pending) {
        return new TarnEnumeratorState(-1, pending, Map.of(), null, Map.of());
    }
}
