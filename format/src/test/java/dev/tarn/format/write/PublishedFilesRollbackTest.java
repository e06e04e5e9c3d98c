package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.manifest.BucketId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A writer's view of the table refuses to go on when the table is rolled back under it. */
class PublishedFilesRollbackTest {

    @TempDir Path dir;

    private static final PublishedFiles.Listener NONE =
            new PublishedFiles.Listener() {
                @Override
                public void changed(BucketId bucket, PublishedFiles.Change change) {}

                @Override
                public void reset() {}
            };

    private Table table() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new org.apache.flink.core.fs.Path(dir.toUri()),
                        TestTables.ID_V,
                        List.of(),
                        Map.of("bucket", "2"));
        for (long i = 1; i <= 5; i++) {
            TestTables.append(table, i, List.of(TestTables.row(i, "v" + i)));
        }
        return table;
    }

    @Test
    void failsWhenTheLatestSnapshotIsOlderThanTheOneItSaw() {
        Table table = table();
        PublishedFiles view = PublishedFiles.ofLatest(TableInternals.context(table));
        SnapshotLifecycle.rollbackTo(TableInternals.context(table), 3);
        assertThatThrownBy(() -> view.advance(NONE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "Table db.t was rolled back under this writer: it had seen snapshot 5,"
                                + " and the latest snapshot is now 3. Restart the job to write on"
                                + " the table as it is now");
    }

    @Test
    void failsWhenTheSnapshotItSawWasCommittedAgain() {
        Table table = table();
        // The writer's own process, as a writer's table is: its snapshots are cached.
        PublishedFiles view = PublishedFiles.ofLatest(TableInternals.context(table));
        Table other = Table.load(table.io(), table.location(), table.name());
        SnapshotLifecycle.rollbackTo(TableInternals.context(other), 3);
        for (long i = 10; i < 13; i++) {
            TestTables.append(other, i, List.of(TestTables.row(i, "w" + i)));
        }
        assertThatThrownBy(() -> view.advance(NONE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "Table db.t was rolled back under this writer: it had seen snapshot 5,"
                                + " and snapshot 5 was removed and its id committed again. Restart"
                                + " the job to write on the table as it is now");
    }

    @Test
    void followsNewSnapshotsAndExpirationAsBefore() {
        Table table = table();
        PublishedFiles view = PublishedFiles.ofLatest(TableInternals.context(table));
        List<String> added = new ArrayList<>();
        TestTables.append(table, 6, List.of(TestTables.row(6L, "v6")));
        view.advance(
                new PublishedFiles.Listener() {
                    @Override
                    public void changed(BucketId bucket, PublishedFiles.Change change) {
                        added.addAll(change.added());
                    }

                    @Override
                    public void reset() {}
                });
        assertThat(added).hasSize(1);
    }
}
