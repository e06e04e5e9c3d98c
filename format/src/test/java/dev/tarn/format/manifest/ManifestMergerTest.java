package dev.tarn.format.manifest;

import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.snapshot.Snapshot;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Manifests stay few as snapshots accumulate, and merging never changes the live files. */
class ManifestMergerTest {

    @TempDir File dir;

    private Table table(Map<String, String> options) {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toURI()),
                TestTables.ID_V_DT,
                List.of("dt"),
                options);
    }

    private static int manifestCount(Table table) {
        Snapshot latest = TableInternals.context(table).snapshotManager().latest();
        return TableInternals.context(table).snapshotReader().manifests(latest).size();
    }

    @Test
    void manifestCountStaysBoundedAndRowsSurvive() {
        Table table = table(Map.of("manifest.merge-min-count", "5"));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            TestTables.append(table, i, List.of(row((long) i, "v" + i, "d" + (i % 3))));
            expected.add(i + ",v" + i + ",d" + (i % 3));
            assertThat(manifestCount(table)).isLessThanOrEqualTo(6);
        }
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void withoutMergingEveryCommitAddsAManifest() {
        Table table = table(Map.of("manifest.merge-min-count", "1000"));
        for (int i = 0; i < 12; i++) {
            TestTables.append(table, i, List.of(row((long) i, "v", "d")));
        }
        assertThat(manifestCount(table)).isEqualTo(12);
    }

    @Test
    void overwriteDeletesSurviveLaterMerges() {
        // Overwrites delete files that were added in manifests merged before, and merges after
        // the overwrite must keep those DELETE entries.
        Table table = table(Map.of("manifest.merge-min-count", "3"));
        for (int i = 0; i < 5; i++) {
            TestTables.append(
                    table, i, List.of(row((long) i, "a" + i, "x"), row(100L + i, "b", "y")));
        }
        TestTables.commit(
                table,
                "user",
                CommitRequest.of(99, TestTables.write(table, List.of(row(7L, "new", "x"))))
                        .overwriting(p -> p.values().get(0).equals("x")));
        for (int i = 0; i < 5; i++) {
            TestTables.append(table, 200 + i, List.of(row(200L + i, "c", "y")));
        }
        List<String> rows = TestTables.readAll(table);
        assertThat(rows).contains("7,new,x").doesNotContain("0,a0,x", "4,a4,x").hasSize(1 + 5 + 5);
    }

    @Test
    void liveFilesIgnoreTheOrderOfAddAndDelete() {
        DataFile file =
                new DataFile(
                        "f",
                        FileContent.DATA,
                        1,
                        1,
                        0,
                        0,
                        new SequenceRange(0, 0),
                        ColumnStats.unknown(1),
                        null);
        ManifestEntry add = new ManifestEntry(FileKind.ADD, Partition.EMPTY, 0, -1, file);
        ManifestEntry delete = new ManifestEntry(FileKind.DELETE, Partition.EMPTY, 0, -1, file);
        Map<ManifestEntry.FileId, ManifestEntry> live = new java.util.LinkedHashMap<>();
        Map<ManifestEntry.FileId, ManifestEntry> deleted = new java.util.HashMap<>();
        LiveFiles.apply(live, deleted, List.of(delete));
        LiveFiles.apply(live, deleted, List.of(add));
        assertThat(live).isEmpty();
    }
}
