package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.SnapshotWatermark;
import dev.tarn.format.snapshot.Snapshot;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The table's watermark as the enumerator learns it, snapshot by snapshot, and the {@link
 * SnapshotWatermark} it tells every reader. Two sources:
 *
 * <ul>
 *   <li>{@link Source#SNAPSHOTS} ({@code SOURCE_WATERMARK()}): the watermark each snapshot's
 *       writers recorded, known once the snapshot is planned.
 *   <li>{@link Source#READERS} (a declared {@code WATERMARK FOR}): each reader runs the declared
 *       generator over its rows and reports its watermark with every split it finishes. Once every
 *       split of a snapshot is read, the snapshot's watermark is the lowest reported for its splits
 *       (the readers that read none of it do not hold it back), and never below the previous one.
 * </ul>
 *
 * Coordinator thread only. What is checkpointed: the watermark and the reports of snapshots not
 * read whole yet.
 */
public final class TableWatermarks {

    /** Where the watermark comes from. */
    public enum Source {
        SNAPSHOTS,
        READERS
    }

    private final Source source;
    @Nullable private Long watermark;

    /** READERS: the lowest watermark reported for a finished split, by its snapshot id. */
    private final NavigableMap<Long, Long> reported = new TreeMap<>();

    /** The last event sent, for a reader that registers later. */
    @Nullable private SnapshotWatermark last;

    /**
     * @param watermark the table's watermark at the start, or restored, or null if none
     * @param reported restored reports of snapshots not read whole yet
     */
    TableWatermarks(Source source, @Nullable Long watermark, Map<Long, Long> reported) {
        this.source = source;
        this.watermark = watermark;
        this.reported.putAll(reported);
    }

    /** Snapshot {@code snapshot} is planned: SNAPSHOTS takes its recorded watermark. */
    void planned(Snapshot snapshot) {
        Long recorded = snapshot.commit().watermark();
        if (source == Source.SNAPSHOTS && recorded != null) {
            raise(recorded);
        }
    }

    /**
     * A reader read a split of snapshot {@code snapshotId} to its end with its generator at {@code
     * readerWatermark} (null: none yet, which holds the snapshot at the previous watermark).
     */
    void finished(long snapshotId, @Nullable Long readerWatermark) {
        if (source == Source.READERS) {
            long w = readerWatermark == null ? Long.MIN_VALUE : readerWatermark;
            reported.merge(snapshotId, w, Math::min);
        }
    }

    /**
     * The event to send every reader if the watermark advanced, else null.
     *
     * @param lastPlanned the last snapshot planned
     * @param firstUnread the lowest snapshot id of a split not read to its end (assigned or not),
     *     or {@code lastPlanned + 1} if there is none
     */
    @Nullable
    SnapshotWatermark advance(long lastPlanned, long firstUnread) {
        long through = lastPlanned;
        if (source == Source.READERS) {
            through = firstUnread - 1;
            var read = reported.headMap(firstUnread, false);
            read.values().forEach(this::raise);
            read.clear();
        }
        if (watermark == null || (last != null && last.watermark() >= watermark)) {
            return null;
        }
        last = new SnapshotWatermark(through, watermark);
        return last;
    }

    @Nullable
    SnapshotWatermark last() {
        return last;
    }

    @Nullable
    Long watermark() {
        return watermark;
    }

    Map<Long, Long> reported() {
        return Map.copyOf(reported);
    }

    private void raise(long w) {
        if (w != Long.MIN_VALUE && (watermark == null || w > watermark)) {
            watermark = w;
        }
    }
}
