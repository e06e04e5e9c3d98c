package dev.tarn.format.maintenance;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.maintenance.MaintenanceTables.addedFile;
import static dev.tarn.format.maintenance.MaintenanceTables.local;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's health report: its snapshots, the level-0 backlog of a primary-key table, small files,
 * the consumers' lag, the newest whole snapshot and the pending commits of each commit user.
 */
class TableHealthTest {

    /** {@code (id BIGINT NOT NULL, v STRING)}. */
    private static final RowType KEYED =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    @TempDir java.nio.file.Path dir;

    /** A primary-key table of one bucket that never compacts: each commit adds a level-0 file. */
    private Table keyed(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("bucket", "1");
        all.put("write-only", "true");
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                TestTables.NAME,
                TableSchema.create(KEYED, List.of(), List.of("id"), all, null));
    }

    @Test
    void aTableWithoutSnapshotsHasNothingToReport() {
        TableHealth.Report report = keyed(Map.of()).maintenance().health();

        assertThat(report.snapshots()).isEqualTo(new TableHealth.Snapshots(0, null, null));
        assertThat(report.level0()).isEqualTo(new TableHealth.Level0(0, 0));
        assertThat(report.files().count()).isZero();
        assertThat(report.consumers()).isEqualTo(new TableHealth.ConsumerLag(0, 0, null));
        assertThat(report.integrity().newestWhole()).isEmpty();
    }

    @Test
    void reportsSnapshotsBacklogSmallFilesAndConsumerLag() throws Exception {
        Table table = keyed(Map.of("target-file-size", "1 mb"));
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        append(table, 3, List.of(row(1L, "c")));
        table.consumers().record("behind", 2, 0);
        table.consumers().record("current", 4, 0);

        TableHealth.Report report = table.maintenance().health();

        assertThat(report.snapshots().retained()).isEqualTo(3);
        assertThat(report.snapshots().earliest().id()).isEqualTo(1);
        assertThat(report.snapshots().latest().id()).isEqualTo(3);
        assertThat(report.level0()).isEqualTo(new TableHealth.Level0(3, 3.0));
        assertThat(report.files()).isEqualTo(new TableHealth.Files(3, 1, 3, 512 * 1024));
        // Snapshots 2 and 3 are still to read for "behind"; "current" waits for snapshot 4.
        assertThat(report.consumers()).isEqualTo(new TableHealth.ConsumerLag(2, 2, "behind"));
        assertThat(report.integrity().problems()).isEmpty();
        assertThat(report.integrity().newestWhole()).hasValue(3);
    }

    @Test
    void aFullCompactionClearsTheBacklog() {
        Table table = keyed(Map.of());
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        assertThat(table.maintenance().health().level0()).isEqualTo(new TableHealth.Level0(2, 2.0));

        table.maintenance().compactFully();

        TableHealth.Report report = table.maintenance().health();
        assertThat(report.level0()).isEqualTo(new TableHealth.Level0(0, 0.0));
        assertThat(report.files().count()).isEqualTo(1);
    }

    @Test
    void aLostFileOfTheLatestSnapshotNamesTheNewestWholeOne() throws Exception {
        Table table = keyed(Map.of());
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        Files.delete(local(addedFile(table, 2)));

        TableHealth.Report report = table.maintenance().health();

        assertThat(report.integrity().problems()).hasSize(1);
        assertThat(report.integrity().newestWhole()).hasValue(1);
    }

    @Test
    void anAppendTableHasNoLevelBacklog() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        ID_V,
                        List.of(),
                        Map.of("bucket", "2", "bucket-key", "id"));
        append(table, 1, List.of(row(1L, "a"), row(2L, "b"), row(3L, "c")));

        TableHealth.Report report = table.maintenance().health();

        assertThat(report.level0()).isNull();
        assertThat(report.files().buckets()).isEqualTo(report.files().count());
    }

    @Test
    void listsEachCommitUsersPendingCommitsAndTheirMissingFiles() throws Exception {
        Table table = keyed(Map.of());
        append(table, 1, List.of(row(1L, "a")));
        // What committers recorded and never published (a commit held back): two checkpoints of
        // one job, the second carrying the first's committable too and replacing its record, and
        // one of another.
        SortedMap<Long, List<CommitMessage>> held = new TreeMap<>();
        held.put(7L, TestTables.write(table, List.of(row(7L, "g"))));
        table.pendingCommits().record("job-b", 7, held, 5_000L);
        held.put(8L, TestTables.write(table, List.of(row(8L, "h"))));
        table.pendingCommits().record("job-b", 8, held, 6_000L);
        SortedMap<Long, List<CommitMessage>> other = new TreeMap<>();
        other.put(3L, TestTables.write(table, List.of(row(3L, "c"))));
        table.pendingCommits().record("job-a", 3, other, 9_000L);
        // A record whose checkpoint its user published (left until the user's next commit) is no
        // pending commit.
        TestTables.commit(
                table,
                "job-c",
                CommitRequest.of(4, TestTables.write(table, List.of(row(4L, "d")))));
        table.pendingCommits().record("job-c", 4, new TreeMap<>(), 1_000L);

        PendingCheck.Result pending = table.maintenance().health().integrity().pending();

        assertThat(pending.byUser())
                .containsExactly(
                        new PendingCheck.UserPending(
                                "job-a", List.of(3L), Instant.ofEpochMilli(9_000)),
                        new PendingCheck.UserPending(
                                "job-b", List.of(7L, 8L), Instant.ofEpochMilli(6_000)));
        assertThat(pending.pendingCount()).isEqualTo(3);
        assertThat(pending.missing()).isEmpty();

        String lost = table.pendingCommits().all().get(0).files().get(0);
        Files.delete(dir.resolve(lost));
        assertThat(table.maintenance().health().integrity().pending().missing())
                .containsExactly(new PendingCheck.Missing("job-a", 3, lost));
    }
}
