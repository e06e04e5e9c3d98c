package dev.tarn.format.read;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.read;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.bucket.RowRouter;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.Predicate.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Planning: partition pruning, file skipping by statistics, and time travel. */
class TableScanTest {

    @TempDir java.nio.file.Path tempDir;

    private Path location;

    @BeforeEach
    void setUp() {
        location = new Path(tempDir.toUri());
    }

    private static Predicate leaf(
            Op op, int field, String name, LogicalType type, Object... literals) {
        List<Object> internal = new ArrayList<>();
        for (Object l : literals) {
            internal.add(l instanceof String s ? StringData.fromString(s) : l);
        }
        return new Predicate.Leaf(op, field, name, type, internal);
    }

    private static Predicate dt(Op op, Object... literals) {
        return leaf(op, 2, "dt", VarCharType.STRING_TYPE, literals);
    }

    private static Predicate id(Op op, Object... literals) {
        return leaf(op, 0, "id", new BigIntType(), literals);
    }

    private static Predicate v(Op op, Object... literals) {
        return leaf(op, 1, "v", VarCharType.STRING_TYPE, literals);
    }

    private static Set<String> partitions(List<Split> splits) {
        return splits.stream()
                .map(s -> String.valueOf(s.partition().values().get(0)))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The files a plan reads, each named by the smallest id it holds. */
    private static List<Long> filesByMinId(List<Split> splits) {
        return splits.stream()
                .flatMap(s -> s.files().stream())
                .map(f -> (Long) f.valueStats().min(0))
                .sorted()
                .toList();
    }

    private Table partitionedTable() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(), location, ID_V_DT, List.of("dt"), Map.of());
        append(
                table,
                1,
                List.of(
                        row(1L, "a", "x"),
                        row(2L, "b", "y"),
                        row(3L, "c", "z"),
                        row(4L, "d", "x"),
                        row(5L, "e", null)));
        return table;
    }

    @Test
    void partitionFilterPlansOnlyMatchingPartitions() {
        Table table = partitionedTable();
        assertThat(partitions(table.newScan().plan().splits()))
                .containsExactly("null", "x", "y", "z");

        List<Split> x = table.newScan().withFilter(dt(Op.EQ, "x")).plan().splits();
        assertThat(partitions(x)).containsExactly("x");
        assertThat(read(table, x)).containsExactly("1,a,x", "4,d,x");

        assertThat(partitions(table.newScan().withFilter(dt(Op.IN, "y", "z", "w")).plan().splits()))
                .containsExactly("y", "z");
        assertThat(partitions(table.newScan().withFilter(dt(Op.IS_NULL)).plan().splits()))
                .containsExactly("null");
        assertThat(partitions(table.newScan().withFilter(dt(Op.IS_NOT_NULL)).plan().splits()))
                .containsExactly("x", "y", "z");
        assertThat(partitions(table.newScan().withFilter(dt(Op.GT, "x")).plan().splits()))
                .containsExactly("y", "z");
        assertThat(table.newScan().withFilter(dt(Op.EQ, "nope")).plan().splits()).isEmpty();
        // A filter on another column cannot prune partitions.
        assertThat(
                        partitions(
                                table.newScan()
                                        .withFilter(
                                                new Predicate.Or(
                                                        List.of(dt(Op.EQ, "x"), v(Op.EQ, "b"))))
                                        .plan()
                                        .splits()))
                .containsExactly("x", "y");
    }

    /** Four files holding ids 0-9, 10-19, 20-29 and 30-39. */
    private Table fourFiles() {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        for (int f = 0; f < 4; f++) {
            List<GenericRowData> rows = new ArrayList<>();
            for (long id = f * 10L; id < f * 10L + 10; id++) {
                rows.add(row(id, "v" + id));
            }
            append(table, f + 1, rows);
        }
        return table;
    }

    private static List<Long> plannedFiles(Table table, Predicate filter) {
        return filesByMinId(table.newScan().withFilter(filter).plan().splits());
    }

    @Test
    void minMaxStatisticsSkipFiles() {
        Table table = fourFiles();
        assertThat(plannedFiles(table, null)).containsExactly(0L, 10L, 20L, 30L);

        Predicate between = new Predicate.And(List.of(id(Op.GT_EQ, 12L), id(Op.LT_EQ, 25L)));
        assertThat(plannedFiles(table, between)).containsExactly(10L, 20L);
        assertThat(read(table, table.newScan().withFilter(between).plan().splits()))
                .hasSize(20)
                .contains("12,v12", "25,v25");

        assertThat(plannedFiles(table, id(Op.EQ, 19L))).containsExactly(10L);
        assertThat(plannedFiles(table, id(Op.LT, 10L))).containsExactly(0L);
        assertThat(plannedFiles(table, id(Op.GT, 29L))).containsExactly(30L);
        assertThat(plannedFiles(table, id(Op.NOT_EQ, 5L))).containsExactly(0L, 10L, 20L, 30L);
        assertThat(plannedFiles(table, new Predicate.Or(List.of(id(Op.EQ, 5L), id(Op.EQ, 35L)))))
                .containsExactly(0L, 30L);
        assertThat(plannedFiles(table, id(Op.IN, 15L, 33L))).containsExactly(10L, 30L);
        assertThat(plannedFiles(table, id(Op.IN, 100L, -1L))).isEmpty();
        // Strings compare as strings: "v21" lies between "v0" and "v9" too.
        assertThat(plannedFiles(table, v(Op.EQ, "v21"))).containsExactly(0L, 20L);
        assertThat(plannedFiles(table, v(Op.LT, "v1"))).containsExactly(0L);
    }

    @Test
    void aPlanCountsTheManifestsItReadAndTheFilesItSkipped() {
        Table table = fourFiles();
        int manifests =
                table.metadata()
                        .files()
                        .manifests(table.metadata().latestSnapshot().orElseThrow())
                        .size();

        ScanStats all = table.newScan().plan().stats();
        assertThat(all.manifests()).isEqualTo(manifests).isPositive();
        assertThat(all.skippedFiles()).isZero();
        assertThat(all.resultedFiles()).isEqualTo(4);
        assertThat(all.durationMillis()).isNotNegative();

        Predicate between = new Predicate.And(List.of(id(Op.GT_EQ, 12L), id(Op.LT_EQ, 25L)));
        ScanStats pruned = table.newScan().withFilter(between).plan().stats();
        assertThat(pruned.manifests()).as("no manifest is skipped").isEqualTo(manifests);
        assertThat(pruned.skippedFiles()).isEqualTo(2);
        assertThat(pruned.resultedFiles()).isEqualTo(2);

        ScanStats none = table.newScan().withFilter(id(Op.EQ, 100L)).plan().stats();
        assertThat(none.skippedFiles()).isEqualTo(4);
        assertThat(none.resultedFiles()).isZero();
    }

    @Test
    void nullCountsSkipFiles() {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        append(table, 1, List.of(row(0L, null), row(1L, null)));
        append(table, 2, List.of(row(10L, "a"), row(11L, "b")));
        append(table, 3, List.of(row(20L, "c"), row(21L, null)));

        assertThat(plannedFiles(table, v(Op.IS_NULL))).containsExactly(0L, 20L);
        assertThat(plannedFiles(table, v(Op.IS_NOT_NULL))).containsExactly(10L, 20L);
        // No comparison is true on a file whose values are all null.
        assertThat(plannedFiles(table, v(Op.NOT_EQ, "zzz"))).containsExactly(10L, 20L);
        assertThat(plannedFiles(table, v(Op.LT_EQ, "c"))).containsExactly(10L, 20L);
    }

    @Test
    void emptyTablePlansNothing() {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        TableScan.Plan plan = table.newScan().plan();
        assertThat(plan.snapshot()).isNull();
        assertThat(plan.splits()).isEmpty();
    }

    @Test
    void planIsPinnedToItsSnapshot() {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        append(table, 1, List.of(row(1L, "a")));
        TableScan.Plan plan = table.newScan().plan();

        append(table, 2, List.of(row(2L, "b")));

        assertThat(plan.snapshot().id()).isEqualTo(1);
        assertThat(plan.splits()).allMatch(s -> s.snapshotId() == 1);
        assertThat(read(table, plan.splits())).containsExactly("1,a");
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @Test
    void filesOfABucketArePackedIntoSplitsOfTheTargetSize() {
        Table table = fourFiles();
        assertThat(table.newScan().plan().splits()).hasSize(1);

        Table small = table.withDynamicOptions(Map.of("source.split.target-size", "1 b"));
        List<Split> splits = small.newScan().plan().splits();
        assertThat(splits).hasSize(4).allMatch(s -> s.files().size() == 1);
        assertThat(read(small, splits)).hasSize(40);
        assertThat(splits.stream().mapToLong(Split::rowCount).sum()).isEqualTo(40);
    }

    @Test
    void timeTravelBySnapshotIdAndTimestamp() throws InterruptedException {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        append(table, 1, List.of(row(1L, "a")));
        long first =
                TableInternals.context(table).snapshotManager().snapshot(1).commit().timeMillis();
        while (System.currentTimeMillis() <= first) {
            Thread.sleep(1);
        }
        append(table, 2, List.of(row(2L, "b")));
        long second =
                TableInternals.context(table).snapshotManager().snapshot(2).commit().timeMillis();

        Table atOne = table.withDynamicOptions(Map.of("scan.snapshot-id", "1"));
        assertThat(atOne.newScan().plan().snapshot().id()).isEqualTo(1);
        assertThat(readAll(atOne)).containsExactly("1,a");
        assertThat(readAll(table.withDynamicOptions(Map.of("scan.snapshot-id", "2"))))
                .containsExactly("1,a", "2,b");

        Table beforeSecond =
                table.withDynamicOptions(
                        Map.of("scan.timestamp-millis", String.valueOf(second - 1)));
        assertThat(readAll(beforeSecond)).containsExactly("1,a");
        Table atSecond =
                table.withDynamicOptions(Map.of("scan.timestamp-millis", String.valueOf(second)));
        assertThat(readAll(atSecond)).containsExactly("1,a", "2,b");

        Table beforeFirst =
                table.withDynamicOptions(
                        Map.of("scan.timestamp-millis", String.valueOf(first - 1)));
        assertThatThrownBy(() -> beforeFirst.newScan().plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Table db.t has no snapshot at or before ")
                .hasMessageContaining("the earliest, 1, was committed at");
    }

    @Test
    void snapshotIdOutsideTheHistoryNamesTableAndRange() {
        Table table =
                TestTables.create(FileIO.flinkFileSystems(), location, ID_V, List.of(), Map.of());
        assertThatThrownBy(
                        () ->
                                table.withDynamicOptions(Map.of("scan.snapshot-id", "1"))
                                        .newScan()
                                        .plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid 'scan.snapshot-id' for table db.t: snapshot 1 does not exist;"
                                + " the table has no snapshot yet");

        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        for (String id : List.of("0", "3", "-1", "999")) {
            assertThatThrownBy(
                            () ->
                                    table.withDynamicOptions(Map.of("scan.snapshot-id", id))
                                            .newScan()
                                            .plan())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Invalid 'scan.snapshot-id' for table db.t: snapshot %s does not"
                                    + " exist; the table has snapshots 1 to 2",
                            id);
        }
    }

    @Test
    void bucketedTableSplitsHoldOnlyTheirBucketsRows() throws IOException {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        location,
                        ID_V_DT,
                        List.of("dt"),
                        Map.of("bucket", "4"));
        List<GenericRowData> rows = new ArrayList<>();
        for (long id = 0; id < 200; id++) {
            rows.add(row(id, "v", id % 2 == 0 ? "even" : "odd"));
        }
        append(table, 1, rows);

        List<Split> splits = table.newScan().plan().splits();
        assertThat(splits).hasSize(8).allMatch(s -> s.totalBuckets() == 4);
        RowRouter router = new RowRouter(table.schema(), 4);
        long total = 0;
        for (Split split : splits) {
            try (TableRead.SplitReader reader = table.newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    assertThat(router.bucket(r)).isEqualTo(split.bucket());
                    assertThat(r.getString(2).toString())
                            .isEqualTo(split.partition().values().get(0));
                    total++;
                }
            }
        }
        assertThat(total).isEqualTo(200);
    }

    @Test
    void partitionValuesThatNeedEscapingRoundTrip() throws IOException {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(), location, ID_V_DT, List.of("dt"), Map.of());
        List<String> values =
                Arrays.asList(
                        "a/b",
                        "a%2Fb",
                        "a=b",
                        "",
                        " ",
                        ".hidden",
                        "..",
                        "_x",
                        "__DEFAULT_PARTITION__",
                        "__EMPTY_PARTITION__",
                        "日付",
                        null);
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            rows.add(row((long) i, "v", values.get(i)));
        }
        append(table, 1, rows);

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            expected.add(i + ",v," + values.get(i));
        }
        expected.sort(null);
        assertThat(readAll(table)).containsExactlyElementsOf(expected);
        // One directory per value, each directly under the table.
        try (Stream<java.nio.file.Path> dirs = Files.list(tempDir)) {
            assertThat(dirs.filter(d -> d.getFileName().toString().startsWith("dt=")))
                    .hasSize(values.size());
        }
        for (String value : List.of("a/b", "a%2Fb", "", "__DEFAULT_PARTITION__")) {
            List<Split> splits = table.newScan().withFilter(dt(Op.EQ, value)).plan().splits();
            assertThat(splits)
                    .singleElement()
                    .extracting(Split::partition)
                    .isEqualTo(Partition.of(value));
            assertThat(read(table, splits)).singleElement().asString().endsWith(",v," + value);
        }
    }
}
