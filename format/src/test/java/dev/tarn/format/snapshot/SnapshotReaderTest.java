package dev.tarn.format.snapshot;

import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a snapshot holds, asked the one way every consumer asks it. */
class SnapshotReaderTest {

    @TempDir java.nio.file.Path tempDir;

    private Table table() {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.toUri()),
                ID_V_DT,
                List.of("dt"),
                Map.of("bucket", "2", "bucket-key", "id"));
    }

    private static List<String> names(List<ManifestEntry> entries) {
        return entries.stream().map(e -> e.file().fileName()).sorted().toList();
    }

    @Test
    void aTableWithoutSnapshotsHasNoLatest() {
        assertThat(TableInternals.context(table()).snapshotReader().latest()).isEmpty();
    }

    @Test
    void liveFilesByBucketPartitionsAndEachSnapshotsDelta() {
        Table table = table();
        append(table, 1, List.of(row(1L, "a", "d1"), row(2L, "b", "d1"), row(3L, "c", "d2")));
        append(table, 2, List.of(row(4L, "d", "d2")));
        SnapshotReader reader = TableInternals.context(table).snapshotReader();
        Snapshot second = reader.latest().orElseThrow();
        assertThat(second.id()).isEqualTo(2);

        Map<BucketId, List<ManifestEntry>> byBucket = reader.filesByBucket(second);
        assertThat(byBucket.values().stream().mapToInt(List::size).sum())
                .isEqualTo(reader.liveFiles(second).size());
        byBucket.forEach(
                (bucket, entries) ->
                        assertThat(entries).allMatch(e -> e.bucketId().equals(bucket)));
        assertThat(reader.partitions(second))
                .containsExactlyInAnyOrder(
                        new Partition(List.of("d1")), new Partition(List.of("d2")));

        // The delta of snapshot 2 is its own file only, though it holds all of them.
        SnapshotReader.Delta delta = reader.delta(second);
        assertThat(delta.deleted()).isEmpty();
        assertThat(delta.added()).hasSize(1);
        assertThat(delta.added().get(0).partition()).isEqualTo(new Partition(List.of("d2")));
        assertThat(reader.delta(reader.snapshot(1)).added())
                .hasSize(reader.liveFiles(second).size() - 1);
    }

    @Test
    void aCompactionsDeltaHoldsWhatItReplacedAndWhatReplacedIt() {
        Table table = table();
        List<CommitMessage> first = write(table, List.of(row(1L, "a", "d1")));
        TestTables.commit(table, "user", CommitRequest.of(1, first));
        CommitMessage original = first.get(0);
        DataFile rewritten = write(table, List.of(row(1L, "a", "d1"))).get(0).newFiles().get(0);
        TestTables.commit(
                table,
                "compactor",
                CommitRequest.of(
                        2,
                        List.of(
                                new CommitMessage(
                                        original.partition(),
                                        original.bucket(),
                                        original.totalBuckets(),
                                        List.of(rewritten),
                                        original.newFiles()))));

        SnapshotReader reader = TableInternals.context(table).snapshotReader();
        SnapshotReader.Delta delta = reader.delta(reader.latest().orElseThrow());
        assertThat(delta.snapshot().commit().kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(names(delta.deleted())).containsExactly(original.newFiles().get(0).fileName());
        assertThat(names(delta.added())).containsExactly(rewritten.fileName());
        assertThat(reader.liveFiles(delta.snapshot()).values())
                .extracting(e -> e.file().fileName())
                .containsExactly(rewritten.fileName());
        assertThat(reader.exists(1)).isTrue();
        assertThat(reader.exists(3)).isFalse();
    }
}
