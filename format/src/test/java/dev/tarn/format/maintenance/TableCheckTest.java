package dev.tarn.format.maintenance;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.maintenance.MaintenanceTables.addedFile;
import static dev.tarn.format.maintenance.MaintenanceTables.local;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.ChangelogTables;
import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The integrity check reports each missing or damaged file that a snapshot needs, with those
 * snapshots, and the newest whole snapshot; a lost file no snapshot needs is no damage.
 */
class TableCheckTest {

    @TempDir java.nio.file.Path dir;

    private Table table;

    /** Three snapshots, each adding one data file of one row. */
    @BeforeEach
    void setUp() {
        table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        ID_V,
                        List.of(),
                        Map.of("bucket", "1"));
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        append(table, 3, List.of(row(3L, "c")));
    }

    private TableCheck.Result check(boolean deep) {
        return TableCheck.run(TableInternals.context(table), deep);
    }

    @Test
    void anIntactTableIsWhole() {
        TableCheck.Result result = check(true);

        assertThat(result.problems()).isEmpty();
        assertThat(result.newestWhole()).hasValue(3);
        // 3 snapshots: 6 lists, 3 manifests, 3 data files.
        assertThat(result.summary())
                .isEqualTo(
                        "Table db.t is whole: checked 3 snapshots and 12 files, reading each data"
                                + " file's footer");
        assertThat(check(false).summary())
                .isEqualTo("Table db.t is whole: checked 3 snapshots and 12 files");
    }

    @Test
    void findsADeletedAndATruncatedDataFileAndTheNewestWholeSnapshot() throws Exception {
        Path second = addedFile(table, 2);
        Path third = addedFile(table, 3);
        Files.delete(local(second));
        byte[] bytes = Files.readAllBytes(local(third));
        Files.write(local(third), Arrays.copyOf(bytes, bytes.length - 5));
        // A prepared file that is lost before its commit: no snapshot needs it.
        List<CommitMessage> prepared = TestTables.write(table, List.of(row(4L, "d")));
        Files.delete(
                local(
                        new Path(
                                table.bucketPath(prepared.get(0).partition(), 0),
                                prepared.get(0).newFiles().get(0).fileName())));

        TableCheck.Result result = check(false);

        assertThat(result.problems())
                .containsExactlyInAnyOrder(
                        new TableCheck.Problem(
                                second.toString(), "data file is missing", List.of(2L, 3L)),
                        new TableCheck.Problem(
                                third.toString(),
                                String.format(
                                        "data file is %d bytes, its manifest records %d (truncated)",
                                        bytes.length - 5, bytes.length),
                                List.of(3L)));
        assertThat(result.newestWhole()).hasValue(1);
        assertThat(result.summary())
                .isEqualTo(
                        "Table db.t has 2 missing or damaged files (checked 3 snapshots and 12"
                                + " files); newest whole snapshot: 1");
    }

    private static final PendingCheck.Result NONE =
            new PendingCheck.Result(List.of(), List.of(), List.of(), List.of());

    @Test
    void theSummaryCountsOneOfAThingInTheSingular() {
        TableCheck.Problem lost =
                new TableCheck.Problem("file:/t/bucket-0/data-1.parquet", "missing", List.of(1L));
        assertThat(
                        new TableCheck.Result(
                                        "db.t", List.of(), 1, 1, false, OptionalLong.of(1), NONE)
                                .summary())
                .isEqualTo("Table db.t is whole: checked 1 snapshot and 1 file");
        assertThat(
                        new TableCheck.Result(
                                        "db.t",
                                        List.of(lost),
                                        1,
                                        3,
                                        true,
                                        OptionalLong.empty(),
                                        NONE)
                                .summary())
                .isEqualTo(
                        "Table db.t has 1 missing or damaged file (checked 1 snapshot and 3 files,"
                                + " reading each data file's footer); no snapshot is whole");
    }

    @Test
    void aFileLostAfterACompactionReplacedItLeavesTheCompactedSnapshotWhole() throws Exception {
        Path first = addedFile(table, 1);
        // Snapshot 4 rewrites the three small files of the bucket into one.
        assertThat(FullCompaction.run(TableInternals.context(table)).orElseThrow().snapshotId())
                .hasValue(4);
        Files.delete(local(first));

        TableCheck.Result result = check(false);

        assertThat(result.problems())
                .containsExactly(
                        new TableCheck.Problem(
                                first.toString(), "data file is missing", List.of(1L, 2L, 3L)));
        assertThat(result.newestWhole()).hasValue(4);
        assertThat(MaintenanceTables.readSnapshot(table, 4)).containsExactly("1,a", "2,b", "3,c");
    }

    @Test
    void findsAMissingManifestAndACorruptManifestList() throws Exception {
        var second = TableInternals.context(table).snapshotManager().snapshot(2);
        String manifest =
                TableInternals.context(table)
                        .manifestList()
                        .read(second.deltaManifestList())
                        .get(0)
                        .fileName();
        Path manifestPath = TableInternals.context(table).manifestFile().path(manifest);
        Files.delete(local(manifestPath));
        Path list =
                TableInternals.context(table)
                        .manifestList()
                        .path(
                                TableInternals.context(table)
                                        .snapshotManager()
                                        .snapshot(1)
                                        .deltaManifestList());
        Files.writeString(local(list), "{not a list");

        TableCheck.Result result = check(false);

        assertThat(result.problems())
                .containsExactlyInAnyOrder(
                        new TableCheck.Problem(
                                manifestPath.toString(),
                                "Manifest file " + manifestPath + " is missing",
                                List.of(2L, 3L)),
                        new TableCheck.Problem(
                                list.toString(),
                                "Cannot read manifest list "
                                        + list
                                        + ": Corrupt metadata file "
                                        + list
                                        + ": it does not start with TRNL (truncated, or not a"
                                        + " Tarn file)",
                                List.of(1L)));
        assertThat(result.newestWhole()).isEmpty();
        assertThat(result.summary()).endsWith("; no snapshot is whole");
    }

    @Test
    void aCorruptSnapshotFileIsReportedWithoutAParserTrace() throws Exception {
        Path third = TableInternals.context(table).snapshotManager().path(3);
        Files.writeString(local(third), "{\"version\": 1, \"id\": ");

        TableCheck.Result result = check(false);

        assertThat(result.problems()).hasSize(1);
        TableCheck.Problem problem = result.problems().get(0);
        assertThat(problem.file()).isEqualTo(third.toString());
        assertThat(problem.problem()).startsWith("Corrupt snapshot file " + third + ": ");
        assertThat(problem.snapshots()).isEmpty();
        assertThat(result.newestWhole()).hasValue(2);
    }

    @Test
    void deepCheckFindsACorruptFooterOfTheRightSize() throws Exception {
        Path second = addedFile(table, 2);
        byte[] bytes = Files.readAllBytes(local(second));
        // Garbage over the footer length and the closing magic: the size stays right.
        for (int i = bytes.length - 8; i < bytes.length; i++) {
            bytes[i] = 'x';
        }
        Files.write(local(second), bytes);

        assertThat(check(false).problems()).isEmpty();
        TableCheck.Result deep = check(true);

        assertThat(deep.problems()).hasSize(1);
        assertThat(deep.problems().get(0).file()).isEqualTo(second.toString());
        assertThat(deep.problems().get(0).problem())
                .startsWith(
                        "data file is damaged: Cannot read "
                                + second
                                + ": not a valid Parquet file (footer: ");
        assertThat(deep.problems().get(0).snapshots()).containsExactly(2L, 3L);
        assertThat(deep.newestWhole()).hasValue(1);
    }

    @Test
    void aLostChangelogOrBeforeImageFileIsAChangelogFile() throws Exception {
        java.nio.file.Path location = dir.resolve("lookup");
        Table lookup = ChangelogTables.create(location, Map.of());
        ChangelogTables.writeHistory(lookup, new Random(9));
        Map<String, String> lost = new TreeMap<>();
        for (String prefix : List.of("data-", "changelog-", "before-")) {
            try (Stream<java.nio.file.Path> files = Files.walk(location)) {
                java.nio.file.Path file =
                        files.filter(f -> f.getFileName().toString().startsWith(prefix))
                                .findFirst()
                                .orElseThrow();
                Files.delete(file);
                lost.put(new Path(file.toUri()).toString(), prefix);
            }
        }

        Map<String, String> problems = new TreeMap<>();
        for (TableCheck.Problem p :
                TableCheck.run(TableInternals.context(lookup), false).problems()) {
            problems.put(p.file(), p.problem());
        }

        assertThat(problems.keySet()).isEqualTo(lost.keySet());
        lost.forEach(
                (file, prefix) ->
                        assertThat(problems.get(file))
                                .as(file)
                                .isEqualTo(
                                        prefix.equals("data-")
                                                ? "data file is missing"
                                                : "changelog file is missing"));
    }
}
