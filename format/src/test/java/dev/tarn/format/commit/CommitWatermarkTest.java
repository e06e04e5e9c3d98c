package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watermark a commit records: the writers' watermark in every snapshot of the commit, never
 * below the table's, kept by commits without one, and a snapshot without files when only the
 * watermark advanced.
 */
class CommitWatermarkTest {

    @TempDir java.nio.file.Path tempDir;

    private Table table() {
        return TestTables.create(
                FileIO.flinkFileSystems(), new Path(tempDir.toUri()), ID_V, List.of(), Map.of());
    }

    private Long watermark(Table table, long snapshot) {
        return TableInternals.context(table)
                .snapshotManager()
                .snapshot(snapshot)
                .commit()
                .watermark();
    }

    @Test
    void aSnapshotRecordsTheCommitsWatermarkInItsFile() throws Exception {
        Table table = table();
        TestTables.commit(
                table,
                "job",
                CommitRequest.of(1, write(table, List.of(row(1L, "a")))).withWatermark(1_000L));

        assertThat(watermark(table, 1)).isEqualTo(1_000L);
        String json =
                Files.readString(
                        Paths.get(TableInternals.context(table).snapshotManager().path(1).toUri())
                                .toAbsolutePath());
        assertThat(json).contains("\"watermark\" : 1000");
    }

    @Test
    void theTablesWatermarkNeverGoesBackNorIsLost() {
        Table table = table();
        TableCommit job = table.newCommit("job");
        job.commit(CommitRequest.of(1, write(table, List.of(row(1L, "a")))).withWatermark(5_000L));
        // A second job behind the first, and a batch insert without any watermark.
        TestTables.commit(
                table,
                "late-job",
                CommitRequest.of(1, write(table, List.of(row(2L, "b")))).withWatermark(3_000L));
        TestTables.commit(
                table,
                "batch",
                CommitRequest.of(Long.MAX_VALUE, write(table, List.of(row(3L, "c")))));

        assertThat(watermark(table, 2)).isEqualTo(5_000L);
        assertThat(watermark(table, 3)).isEqualTo(5_000L);
        job.commit(CommitRequest.of(2, write(table, List.of(row(4L, "d")))).withWatermark(7_000L));
        assertThat(watermark(table, 4)).isEqualTo(7_000L);
    }

    @Test
    void aTableWithoutWatermarksRecordsNone() throws Exception {
        Table table = table();
        TestTables.commit(table, "batch", CommitRequest.of(1, write(table, List.of(row(1L, "a")))));
        TestTables.commit(table, "job", CommitRequest.of(2, List.of()).withWatermark(null));

        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(1);
        assertThat(watermark(table, 1)).isNull();
        assertThat(
                        Files.readString(
                                Paths.get(
                                                TableInternals.context(table)
                                                        .snapshotManager()
                                                        .path(1)
                                                        .toUri())
                                        .toAbsolutePath()))
                .doesNotContain("watermark");
    }

    @Test
    void aCommitWithoutChangesPublishesOnlyAnAdvancingWatermark() {
        Table table = table();
        TableCommit commit = table.newCommit("job");
        commit.commit(
                CommitRequest.of(1, write(table, List.of(row(1L, "a")))).withWatermark(1_000L));

        assertThat(commit.commit(CommitRequest.of(2, List.of()).withWatermark(2_000L)).snapshotId())
                .hasValue(2);
        Snapshot empty = TableInternals.context(table).snapshotManager().snapshot(2);
        assertThat(empty.commit().kind()).isEqualTo(CommitKind.APPEND);
        assertThat(empty.commit().identifier()).isEqualTo(2);
        assertThat(empty.commit().watermark()).isEqualTo(2_000L);
        assertThat(empty.records()).isEqualTo(new Snapshot.RecordCounts(1, 0));
        assertThat(TableInternals.context(table).snapshotReader().delta(empty).entries()).isEmpty();
        assertThat(readAll(table)).containsExactly("1,a");

        // Not above the table's watermark: nothing to publish.
        assertThat(commit.commit(CommitRequest.of(3, List.of()).withWatermark(2_000L)).snapshotId())
                .isEmpty();
        assertThat(commit.commit(CommitRequest.of(4, List.of()).withWatermark(1_500L)).snapshotId())
                .isEmpty();
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(2);
        // A retry of the watermark-only commit finds it published.
        assertThat(
                        commit.commit(CommitRequest.of(2, List.of()).withWatermark(2_000L))
                                .alreadyCommitted())
                .isTrue();
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(2);
    }

    @Test
    void theCompactSnapshotOfACommitRecordsItsWatermarkToo() throws Exception {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                        new String[] {"id", "v"});
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        "db.pk",
                        TableSchema.create(
                                type, List.of(), List.of("id"), Map.of("bucket", "1"), null));
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            write.write(GenericRowData.of(1L, StringData.fromString("a")));
            TestTables.commit(
                    table,
                    "job",
                    CommitRequest.of(1, write.prepareCommit(false)).withWatermark(1_000L));
            write.write(GenericRowData.of(1L, StringData.fromString("b")));
            write.compactFully(Partition.EMPTY, 0);
            messages = write.prepareCommit(true);
        }
        TestTables.commit(table, "job", CommitRequest.of(2, messages).withWatermark(2_000L));

        Snapshot compact = TableInternals.context(table).snapshotManager().latest();
        assertThat(compact.commit().kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(compact.commit().watermark()).isEqualTo(2_000L);
        assertThat(watermark(table, compact.id() - 1)).isEqualTo(2_000L);
    }
}
