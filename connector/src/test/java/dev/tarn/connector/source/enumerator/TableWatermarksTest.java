package dev.tarn.connector.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.SnapshotWatermark;
import dev.tarn.format.snapshot.Snapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The enumerator's watermark: from the snapshots' records, or, for a declared watermark, from the
 * readers' reports once every split of a snapshot is read, the lowest of its splits', not held back
 * by snapshots nobody read, never going back.
 */
class TableWatermarksTest {

    private static Snapshot snapshot(long id, Long watermark) {
        return new Snapshot(
                id,
                0,
                "base",
                "delta",
                new Snapshot.Commit("job", id, Snapshot.CommitKind.APPEND, 0, watermark),
                new Snapshot.RecordCounts(0, 0));
    }

    @Test
    void snapshotsGiveTheirRecordedWatermarkOncePlanned() {
        TableWatermarks w = new TableWatermarks(TableWatermarks.Source.SNAPSHOTS, null, Map.of());
        w.planned(snapshot(1, null));
        assertThat(w.advance(1, 1)).isNull();
        w.planned(snapshot(2, 4_000L));
        w.planned(snapshot(3, 6_000L));
        // Splits of snapshot 2 still being read do not hold it: each reader waits for its own.
        assertThat(w.advance(3, 2)).isEqualTo(new SnapshotWatermark(3, 6_000));
        assertThat(w.advance(3, 4)).as("no news").isNull();
        assertThat(w.last()).isEqualTo(new SnapshotWatermark(3, 6_000));
        // Reports do not count for snapshot watermarks.
        w.finished(3, 9_000L);
        w.planned(snapshot(4, 6_000L));
        assertThat(w.advance(4, 5)).isNull();
    }

    @Test
    void readersGiveTheLowestReportOfASnapshotReadWhole() {
        TableWatermarks w = new TableWatermarks(TableWatermarks.Source.READERS, null, Map.of());
        w.planned(snapshot(1, 99_000L)); // Recorded watermarks do not count here.
        w.finished(1, 5_000L);
        assertThat(w.advance(1, 1)).as("a split of snapshot 1 is unread").isNull();
        w.finished(1, 3_000L);
        assertThat(w.advance(1, 2)).isEqualTo(new SnapshotWatermark(1, 3_000));

        // Snapshot 2 had no split for anyone; snapshot 3 is read by one reader only.
        w.finished(3, 8_000L);
        assertThat(w.advance(3, 4)).isEqualTo(new SnapshotWatermark(3, 8_000));
        // A reader behind the table's watermark does not move it back.
        w.finished(4, 7_000L);
        assertThat(w.advance(4, 5)).isNull();
        assertThat(w.watermark()).isEqualTo(8_000L);
        // A reader without a watermark yet holds its snapshot at the previous one.
        w.finished(5, null);
        w.finished(5, 12_000L);
        assertThat(w.advance(5, 6)).isNull();
        assertThat(w.watermark()).isEqualTo(8_000L);
    }

    @Test
    void reportsOfSnapshotsNotReadWholeAreCheckpointedAndRestored() {
        TableWatermarks w = new TableWatermarks(TableWatermarks.Source.READERS, 2_000L, Map.of());
        w.finished(7, 9_000L);
        w.finished(8, 10_000L);
        assertThat(w.advance(8, 8)).isEqualTo(new SnapshotWatermark(7, 9_000));
        assertThat(w.reported()).isEqualTo(Map.of(8L, 10_000L));

        TableWatermarks restored =
                new TableWatermarks(TableWatermarks.Source.READERS, w.watermark(), w.reported());
        assertThat(restored.last()).isNull();
        restored.finished(8, 11_000L);
        assertThat(restored.advance(8, 9)).isEqualTo(new SnapshotWatermark(8, 10_000));
    }
}
