package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a long-running writer compacts by itself at its checkpoints: an append table's writer merges
 * the small files it wrote once {@code compaction.min.file-num} are published; with {@code
 * write-only} neither kind of writer compacts.
 */
class WriterCompactionTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new BigIntType()},
                    new String[] {"k", "v"});

    @TempDir java.nio.file.Path dir;

    private Table create(List<String> primaryKey, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), primaryKey, options, null));
    }

    /** Runs {@code checkpoints} checkpoints of one writer, each a row and a commit. */
    private static void checkpoints(Table table, int checkpoints) throws Exception {
        TableCommit commit = table.newCommit("writer");
        try (TableWrite write = table.newWrite()) {
            for (int c = 1; c <= checkpoints; c++) {
                write.write(GenericRowData.of((long) c % 3, (long) c));
                commit.commit(CommitRequest.of(c, write.prepareCommit(false)));
            }
            commit.commit(CommitRequest.of(checkpoints + 1, write.prepareCommit(true)));
        }
    }

    private static List<Snapshot> history(Table table) {
        List<Snapshot> all = new ArrayList<>();
        for (long id = 1;
                id <= TableInternals.context(table).snapshotManager().latestId().orElse(0);
                id++) {
            all.add(TableInternals.context(table).snapshotManager().snapshot(id));
        }
        return all;
    }

    private static int liveFiles(Table table) {
        Snapshot latest = TableInternals.context(table).snapshotReader().latest().orElseThrow();
        return TableInternals.context(table)
                .snapshotReader()
                .filesByBucket(latest)
                .values()
                .stream()
                .mapToInt(List::size)
                .sum();
    }

    private static List<Long> values(Table table) throws Exception {
        List<Long> values = new ArrayList<>();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = table.newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    values.add(r.getLong(1));
                }
            }
        }
        values.sort(null);
        return values;
    }

    @Test
    void anAppendWriterMergesItsPublishedSmallFiles() throws Exception {
        Table table =
                create(
                        List.of(),
                        Map.of("compaction.min.file-num", "3", "compaction.max.file-num", "3"));
        checkpoints(table, 12);

        List<Snapshot> history = history(table);
        long appends = history.stream().filter(s -> s.commit().kind() == CommitKind.APPEND).count();
        assertThat(appends).isEqualTo(12);
        assertThat(history).filteredOn(s -> s.commit().kind() == CommitKind.COMPACT).isNotEmpty();
        assertThat(liveFiles(table))
                .as("files after %d commits", appends)
                .isLessThan((int) appends);
        List<Long> expected = new ArrayList<>();
        for (long c = 1; c <= 12; c++) {
            expected.add(c);
        }
        assertThat(values(table)).isEqualTo(expected);
    }

    @Test
    void writeOnlyWritersNeverCompact() throws Exception {
        Table append =
                create(List.of(), Map.of("compaction.min.file-num", "2", "write-only", "true"));
        checkpoints(append, 8);
        assertThat(history(append)).allMatch(s -> s.commit().kind() == CommitKind.APPEND);
        assertThat(liveFiles(append)).isEqualTo(8);

        java.nio.file.Path pkDir = dir.resolve("pk");
        Table pk =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(pkDir.toUri()),
                        "db.pk",
                        TableSchema.create(
                                TYPE,
                                List.of(),
                                List.of("k"),
                                Map.of(
                                        "bucket",
                                        "1",
                                        "num-sorted-run.compaction-trigger",
                                        "2",
                                        "full-compaction.delta-commits",
                                        "2",
                                        "write-only",
                                        "true"),
                                null));
        checkpoints(pk, 8);
        assertThat(history(pk)).allMatch(s -> s.commit().kind() == CommitKind.APPEND);
        assertThat(liveFiles(pk)).isEqualTo(8);
    }

    /**
     * A primary-key writer whose table is truncated under it (TRUNCATE TABLE commits an overwrite
     * of every partition without files) brings none of the old rows back, neither by its later
     * commits nor by its compactions, which had the old files in their view of the bucket.
     */
    @Test
    void aPrimaryKeyWriterBringsBackNoRowOfATruncateUnderIt() throws Exception {
        Table pk =
                create(
                        List.of("k"),
                        Map.of("bucket", "1", "num-sorted-run.compaction-trigger", "2"));
        TableCommit commit = pk.newCommit("writer");
        try (TableWrite write = pk.newWrite()) {
            for (long k = 0; k < 3; k++) {
                write.write(GenericRowData.of(k, k));
                commit.commit(CommitRequest.of(k + 1, write.prepareCommit(false)));
            }
            long truncate =
                    TestTables.commit(
                                    pk,
                                    "truncate",
                                    CommitRequest.of(1, List.of()).overwriting(p -> true))
                            .snapshotId()
                            .getAsLong();
            assertThat(values(pk)).isEmpty();
            for (long c = 4; c <= 9; c++) {
                write.write(GenericRowData.of(0L, c * 10));
                commit.commit(CommitRequest.of(c, write.prepareCommit(false)));
            }
            commit.commit(CommitRequest.of(10, write.prepareCommit(true)));
            assertThat(history(pk))
                    .as("the writer compacted after the truncate")
                    .anyMatch(s -> s.id() > truncate && s.commit().kind() == CommitKind.COMPACT);
        }
        assertThat(values(pk)).containsExactly(90L);
    }

    @Test
    void badCompactionOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> create(List.of(), Map.of("compaction.min.file-num", "1")))
                .hasMessageContaining(
                        "Invalid value '1' for option 'compaction.min.file-num' of table db.t: must"
                                + " be at least 2");
        assertThatThrownBy(
                        () ->
                                create(
                                        List.of(),
                                        Map.of(
                                                "compaction.min.file-num",
                                                "6",
                                                "compaction.max.file-num",
                                                "5")))
                .hasMessageContaining(
                        "Invalid value '5' for option 'compaction.max.file-num' of table db.t: must"
                                + " be at least 'compaction.min.file-num' (6)");
    }
}
