package dev.tarn.format.maintenance;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.maintenance.MaintenanceTables.age;
import static dev.tarn.format.maintenance.MaintenanceTables.filesBelow;
import static dev.tarn.format.maintenance.MaintenanceTables.readSnapshot;
import static dev.tarn.format.maintenance.MaintenanceTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan cleanup removes old unreferenced files only: never a file a snapshot references, never a
 * prepared file younger than the threshold, never snapshot or schema metadata, nothing on a dry
 * run.
 */
class RemoveOrphanFilesTest {

    private static final Instant NOW = Instant.now();
    private static final Instant OLD = NOW.minus(Duration.ofDays(3));

    @TempDir java.nio.file.Path dir;

    private Table table(List<String> partitionKeys) {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                partitionKeys.isEmpty() ? ID_V : ID_V_DT,
                partitionKeys,
                Map.of("bucket", "2", "bucket-key", "id"));
    }

    private static void ageAll(java.nio.file.Path dir) {
        filesBelow(dir).forEach(f -> age(f, OLD));
    }

    @Test
    void preparedFilesYoungerThanTheThresholdSurviveAndCommitAfterwards() throws Exception {
        Table table = table(List.of());
        append(table, 1, List.of(row(1L, "a")));
        ageAll(dir);
        java.nio.file.Path orphan = write(dir.resolve("bucket-0/data-lost.parquet"), "x", OLD);
        List<CommitMessage> prepared = TestTables.write(table, List.of(row(2L, "b"), row(3L, "c")));
        List<java.nio.file.Path> preparedFiles = new ArrayList<>();
        for (CommitMessage m : prepared) {
            m.newFiles()
                    .forEach(
                            f ->
                                    preparedFiles.add(
                                            MaintenanceTables.local(
                                                    new Path(
                                                            table.bucketPath(
                                                                    m.partition(), m.bucket()),
                                                            f.fileName()))));
        }
        assertThat(preparedFiles).isNotEmpty().allMatch(Files::exists);

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(
                        TableInternals.context(table),
                        NOW.minus(Duration.ofMinutes(30)),
                        false,
                        true,
                        NOW);

        assertThat(result.files())
                .extracting(RemoveOrphanFiles.Removed::path)
                .containsExactly(new Path(orphan.toUri()).toString());
        assertThat(orphan).doesNotExist();
        assertThat(preparedFiles).allMatch(Files::exists);
        TestTables.commit(table, "user", CommitRequest.of(2, prepared));
        assertThat(readAll(table)).containsExactly("1,a", "2,b", "3,c");
    }

    /** Files only an expired snapshot's tag still references are no orphans. */
    @Test
    void keepsTheFilesOfATagWhoseSnapshotExpired() throws Exception {
        Table table = table(List.of());
        for (long c = 1; c <= 3; c++) {
            append(table, c, List.of(row(2 * c, "a"), row(2 * c + 1, "b")));
        }
        SnapshotLifecycle.createTag(
                TableInternals.context(table),
                "keep",
                java.util.OptionalLong.of(2),
                null,
                NOW.toEpochMilli());
        FullCompaction.run(TableInternals.context(table));
        SnapshotLifecycle.expire(
                TableInternals.context(table),
                new SnapshotLifecycle.ExpireRequest(1, 1, null, null),
                NOW.toEpochMilli());
        assertThat(TableInternals.context(table).snapshotManager().exists(2))
                .as("snapshot 2")
                .isFalse();
        List<String> tagged = LifecycleTables.readTag(table, "keep");
        ageAll(dir);

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(TableInternals.context(table), null, false, false, NOW);

        assertThat(result.files()).isEmpty();
        assertThat(LifecycleTables.readTag(table, "keep"))
                .isEqualTo(tagged)
                .containsExactly("2,a", "3,b", "4,a", "5,b");
    }

    @Test
    void removesOldOrphansOfEveryKindAndKeepsMetadata() {
        Table table = table(List.of());
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        ageAll(dir);
        List<java.nio.file.Path> kept = filesBelow(dir);
        List<java.nio.file.Path> orphans =
                List.of(
                        write(dir.resolve("bucket-1/data-lost.parquet"), "lost", OLD),
                        write(dir.resolve("bucket-0/changelog-lost.parquet"), "lost", OLD),
                        write(dir.resolve("manifest/manifest-lost"), "lost", OLD),
                        write(dir.resolve("manifest/manifest-list-lost"), "lost", OLD),
                        write(dir.resolve("snapshot/.snapshot-3.abc.tmp"), "tmp", OLD),
                        write(dir.resolve("schema/.schema-1.abc.tmp"), "tmp", OLD));
        java.nio.file.Path foreign = write(dir.resolve("README.txt"), "not Tarn's", OLD);
        java.nio.file.Path young = write(dir.resolve("bucket-1/data-young.parquet"), "new", NOW);

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(TableInternals.context(table), null, false, false, NOW);

        assertThat(result.files())
                .extracting(RemoveOrphanFiles.Removed::path)
                .containsExactlyInAnyOrderElementsOf(
                        orphans.stream().map(f -> new Path(f.toUri()).toString()).toList());
        assertThat(result.bytes()).isEqualTo(4 * 4 + 2 * 3);
        assertThat(result.summary())
                .isEqualTo(
                        "Removed 6 orphan files (22 bytes) of table db.t older than "
                                + NOW.minus(Duration.ofDays(1)));
        assertThat(orphans).noneMatch(Files::exists);
        assertThat(kept).allMatch(Files::exists);
        assertThat(List.of(foreign, young)).allMatch(Files::exists);
        assertThat(readSnapshot(table, 1)).containsExactly("1,a");
        assertThat(readSnapshot(table, 2)).containsExactly("1,a", "2,b");
    }

    @Test
    void dryRunListsAndDeletesNothing() {
        Table table = table(List.of());
        append(table, 1, List.of(row(1L, "a")));
        java.nio.file.Path orphan = write(dir.resolve("bucket-0/data-lost.parquet"), "lost", OLD);
        List<java.nio.file.Path> before = filesBelow(dir);

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(TableInternals.context(table), null, true, false, NOW);

        assertThat(result.files())
                .containsExactly(
                        new RemoveOrphanFiles.Removed(new Path(orphan.toUri()).toString(), 4));
        assertThat(result.summary())
                .startsWith("Would remove 1 orphan file (4 bytes) of table db.t")
                .endsWith("(dry run: nothing was deleted)");
        assertThat(filesBelow(dir)).isEqualTo(before);
    }

    @Test
    void neverDeletesAReferencedFileOfAnySnapshot() {
        Table table = table(List.of("dt"));
        append(table, 1, List.of(row(1L, "a", "2026/11 x"), row(2L, "b", ".hidden")));
        append(table, 2, List.of(row(3L, "c", "2026/11 x"), row(4L, "d", "")));
        assertThat(FullCompaction.run(TableInternals.context(table)).orElseThrow().snapshotId())
                .hasValue(3);
        ageAll(dir);
        List<java.nio.file.Path> all = filesBelow(dir);

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(TableInternals.context(table), NOW, false, true, NOW);

        assertThat(result.files()).isEmpty();
        assertThat(filesBelow(dir)).isEqualTo(all);
        assertThat(readSnapshot(table, 1)).containsExactly("1,a,2026/11 x", "2,b,.hidden");
        assertThat(readSnapshot(table, 2))
                .containsExactly("1,a,2026/11 x", "2,b,.hidden", "3,c,2026/11 x", "4,d,");
        assertThat(readSnapshot(table, 3)).isEqualTo(readSnapshot(table, 2));
    }

    @Test
    void keepsTheChangelogFilesOfAPrimaryKeyTable() {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        TestTables.NAME,
                        TableSchema.create(
                                RowType.of(
                                        new LogicalType[] {
                                            new BigIntType(false), VarCharType.STRING_TYPE
                                        },
                                        new String[] {"id", "v"}),
                                List.of(),
                                List.of("id"),
                                Map.of("bucket", "1", "changelog-producer", "input"),
                                null));
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(1L, "b")));
        ageAll(dir);
        List<java.nio.file.Path> all = filesBelow(dir);
        assertThat(all).anyMatch(f -> f.getFileName().toString().startsWith("changelog-"));

        RemoveOrphanFiles.Result result =
                RemoveOrphanFiles.run(TableInternals.context(table), NOW, false, true, NOW);

        assertThat(result.files()).isEmpty();
        assertThat(filesBelow(dir)).isEqualTo(all);
        assertThat(readSnapshot(table, 2)).containsExactly("1,b");
    }

    @Test
    void refusesARecentThresholdWithoutForce() {
        Table table = table(List.of());
        Instant recent = NOW.minus(Duration.ofMinutes(10));

        assertThatThrownBy(
                        () ->
                                RemoveOrphanFiles.run(
                                        TableInternals.context(table), recent, false, false, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot remove orphan files of table db.t: older_than %s is less than 60"
                                + " minutes before now (%s), and files written for a commit that"
                                + " has not happened yet look orphaned that young; pass force =>"
                                + " true to remove them anyway",
                        recent, NOW);
    }

    @Test
    void refusesWhenAManifestCannotBeRead() throws Exception {
        Table table = table(List.of());
        append(table, 1, List.of(row(1L, "a")));
        var snapshot = TableInternals.context(table).snapshotManager().latest();
        String manifest =
                TableInternals.context(table)
                        .manifestList()
                        .read(snapshot.deltaManifestList())
                        .get(0)
                        .fileName();
        Path manifestPath = TableInternals.context(table).manifestFile().path(manifest);
        Files.writeString(MaintenanceTables.local(manifestPath), "garbage");
        java.nio.file.Path orphan = write(dir.resolve("bucket-0/data-lost.parquet"), "lost", OLD);

        assertThatThrownBy(
                        () ->
                                RemoveOrphanFiles.run(
                                        TableInternals.context(table), null, false, false, NOW))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "Cannot remove orphan files of table db.t: 1 metadata files cannot be"
                                + " read, so which files they reference is unknown and nothing was"
                                + " removed (first: Cannot read manifest file %s: Corrupt metadata"
                                + " file %s: it does not start with TRNM (truncated, or not a Tarn"
                                + " file)); call check_table",
                        manifestPath, manifestPath);
        assertThat(orphan).exists();
    }
}
