package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.SnapshotWatermark;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reader's bookkeeping for {@code SOURCE_WATERMARK()}: the watermarks the enumerator sent, each
 * for the snapshots up to an id, and the reader's splits not read to their end. A watermark is due
 * once no unfinished split belongs to a snapshot at or before its id, so no row the reader emits
 * after it comes from a snapshot the watermark covers. Due watermarks only grow. Task thread only.
 */
public final class SnapshotWatermarks {

    /** Unfinished splits, by split id, to their snapshot id. */
    private final Map<String, Long> unfinished = new HashMap<>();

    /** Watermarks not emitted yet, by the last snapshot they cover. */
    private final TreeMap<Long, Long> received = new TreeMap<>();

    private long emitted = Long.MIN_VALUE;

    public void assigned(String splitId, long snapshotId) {
        unfinished.put(splitId, snapshotId);
    }

    public void finished(String splitId) {
        unfinished.remove(splitId);
    }

    public void received(SnapshotWatermark event) {
        received.merge(event.snapshotId(), event.watermark(), Math::max);
    }

    /** Whether {@link #takeDue} would return a watermark. */
    public boolean hasDue() {
        if (received.isEmpty()) {
            return false;
        }
        long firstUnread = firstUnread();
        for (Map.Entry<Long, Long> e : received.headMap(firstUnread, false).entrySet()) {
            if (e.getValue() > emitted) {
                return true;
            }
        }
        return false;
    }

    /**
     * The highest watermark due and above the last one taken, or {@link Long#MIN_VALUE} if there is
     * none; what it covers is forgotten.
     */
    public long takeDue() {
        if (received.isEmpty()) {
            return Long.MIN_VALUE;
        }
        var due = received.headMap(firstUnread(), false);
        long highest = Long.MIN_VALUE;
        for (long w : due.values()) {
            highest = Math.max(highest, w);
        }
        due.clear();
        if (highest <= emitted) {
            return Long.MIN_VALUE;
        }
        emitted = highest;
        return highest;
    }

    /** The lowest snapshot id of an unfinished split, or {@link Long#MAX_VALUE} if none. */
    private long firstUnread() {
        long first = Long.MAX_VALUE;
        for (long snapshot : unfinished.values()) {
            first = Math.min(first, snapshot);
        }
        return first;
    }
}
