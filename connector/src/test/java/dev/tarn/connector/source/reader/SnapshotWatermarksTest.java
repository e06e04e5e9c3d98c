package dev.tarn.connector.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.SnapshotWatermark;
import org.junit.jupiter.api.Test;

/**
 * A reader emits a snapshot watermark only after its splits of the snapshots it covers, never one
 * lower than before, and at once when it has no such split.
 */
class SnapshotWatermarksTest {

    @Test
    void aWatermarkWaitsForTheSplitsOfTheSnapshotsItCovers() {
        SnapshotWatermarks w = new SnapshotWatermarks();
        w.assigned("5-0", 5);
        w.assigned("6-1", 6);
        w.received(new SnapshotWatermark(5, 1_000));
        w.received(new SnapshotWatermark(6, 2_000));
        assertThat(w.hasDue()).isFalse();
        assertThat(w.takeDue()).isEqualTo(Long.MIN_VALUE);

        w.finished("5-0");
        assertThat(w.hasDue()).isTrue();
        assertThat(w.takeDue()).isEqualTo(1_000);
        assertThat(w.hasDue()).isFalse();

        w.finished("6-1");
        assertThat(w.takeDue()).isEqualTo(2_000);
        assertThat(w.takeDue()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aReaderWithoutSplitsEmitsAtOnceTheHighestDue() {
        SnapshotWatermarks w = new SnapshotWatermarks();
        w.received(new SnapshotWatermark(3, 1_000));
        w.received(new SnapshotWatermark(4, 3_000));
        assertThat(w.hasDue()).isTrue();
        assertThat(w.takeDue()).isEqualTo(3_000);

        // A later split does not hold back what its snapshot does not come before.
        w.assigned("9-2", 9);
        w.received(new SnapshotWatermark(8, 4_000));
        assertThat(w.takeDue()).isEqualTo(4_000);
    }

    @Test
    void dueWatermarksOnlyGrow() {
        SnapshotWatermarks w = new SnapshotWatermarks();
        w.received(new SnapshotWatermark(3, 5_000));
        assertThat(w.takeDue()).isEqualTo(5_000);
        // Sent again to a reader that registered anew, or lower: nothing to emit.
        w.received(new SnapshotWatermark(3, 5_000));
        w.received(new SnapshotWatermark(4, 4_000));
        assertThat(w.hasDue()).isFalse();
        assertThat(w.takeDue()).isEqualTo(Long.MIN_VALUE);
    }
}
