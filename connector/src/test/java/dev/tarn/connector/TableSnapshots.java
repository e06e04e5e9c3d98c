package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;

/** The snapshots of table {@code t} at a path, read through the format, for the ITCases. */
final class TableSnapshots {

    static TableMetadata of(String path) {
        return Table.load(FileIO.flinkFileSystems(), new Path(path), "t").metadata();
    }

    /**
     * Every snapshot of the table, oldest first, after asserting that no commit (a commit user's
     * checkpoint, of one commit kind) is in two of them: each checkpoint was published once.
     */
    static List<Snapshot> assertEachCommitOnce(String path) {
        TableMetadata snapshots = of(path);
        List<Snapshot> all = new ArrayList<>();
        Map<List<Object>, Long> snapshotOfCommit = new HashMap<>();
        for (long id = 1; id <= snapshots.latestSnapshotId().orElseThrow(); id++) {
            Snapshot s = snapshots.snapshot(id);
            Snapshot.Commit c = s.commit();
            Long earlier = snapshotOfCommit.put(List.of(c.user(), c.identifier(), c.kind()), id);
            assertThat(earlier)
                    .as(
                            "snapshot %d publishes %s checkpoint %d of user %s again",
                            id, c.kind(), c.identifier(), c.user())
                    .isNull();
            all.add(s);
        }
        return all;
    }

    private TableSnapshots() {}
}
