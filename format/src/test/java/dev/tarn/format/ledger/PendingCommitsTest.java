package dev.tarn.format.ledger;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.maintenance.PendingCheck;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import dev.tarn.format.maintenance.TableCheck;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger of prepared files: each checkpoint replaces its user's one record with what the
 * committer carries, with one write and no delete per commit; a record a snapshot of its user
 * reached is done, and a committer that closes after publishing a record's checkpoint deletes it,
 * never a later one; a crash on either side of the publish loses nothing and publishes nothing
 * twice; orphan cleanup keeps every file a pending record lists; the integrity check names the
 * checkpoint to restore from when one is lost; an untouched user is reported.
 */
class PendingCommitsTest {

    private static final String USER = "job-1";

    @TempDir java.nio.file.Path dir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();

    private Table table(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(Map.of("bucket", "1"));
        all.putAll(options);
        return TestTables.create(io, new Path(dir.toUri()), ID_V, List.of(), all);
    }

    /** Checkpoints 1 and 2 carried by the committer, of one row each. */
    private static SortedMap<Long, List<CommitMessage>> carried(Table table, long first) {
        SortedMap<Long, List<CommitMessage>> carried = new TreeMap<>();
        carried.put(first, TestTables.write(table, List.of(row(first, "a"))));
        carried.put(first + 1, TestTables.write(table, List.of(row(first + 1, "b"))));
        return carried;
    }

    private static CommitRequest request(SortedMap<Long, List<CommitMessage>> carried) {
        List<CommitMessage> all = new ArrayList<>();
        carried.values().forEach(all::addAll);
        return CommitRequest.of(carried.lastKey(), all);
    }

    private static TableCommit committer(Table table) {
        return new TableCommit(TableInternals.context(table), USER);
    }

    /**
     * As the streaming sink does: records what the committer carries (while the checkpoint is
     * taken), then commits it through a new committer (a restarted job) and closes it (the job
     * stops), forgetting the record once published.
     */
    private static TableCommit.Result commit(
            Table table, SortedMap<Long, List<CommitMessage>> carried) {
        PendingCommits ledger = table.pendingCommits();
        ledger.record(USER, carried.lastKey(), carried, System.currentTimeMillis());
        TableCommit.Result result;
        try (TableCommit commit = committer(table)) {
            result = commit.commit(request(carried));
        }
        ledger.forget(USER, carried.lastKey());
        return result;
    }

    /** As {@link #commit}, but the job crashes once the commit returned: nothing closes. */
    private static TableCommit.Result commitAndCrash(
            Table table, SortedMap<Long, List<CommitMessage>> carried) {
        table.pendingCommits().record(USER, carried.lastKey(), carried, System.currentTimeMillis());
        return committer(table).commit(request(carried));
    }

    /** The user's one record. */
    private java.nio.file.Path record() {
        return dir.resolve("pending/" + USER);
    }

    /** The checkpoints of the records that no snapshot of their user reached yet. */
    private static List<List<Long>> pending(Table table) {
        return table.maintenance().check(false).pending().byUser().stream()
                .map(PendingCheck.UserPending::checkpoints)
                .toList();
    }

    private void failEveryPublish() {
        io.failAlways(Op.LINK, named("snapshot-"));
    }

    @Test
    void theRecordListsEveryCarriedCheckpointsFilesBeforeTheCommitIsTried() throws Exception {
        Table table = table(Map.of());
        SortedMap<Long, List<CommitMessage>> carried = carried(table, 1);
        failEveryPublish();
        assertThatThrownBy(() -> commit(table, carried)).isNotNull();

        List<PendingCommit> records = table.pendingCommits().all();
        assertThat(records).hasSize(1);
        PendingCommit record = records.get(0);
        assertThat(record.user()).isEqualTo(USER);
        assertThat(record.checkpoint()).isEqualTo(2);
        assertThat(record.committables().keySet()).containsExactly(1L, 2L);
        String first = carried.get(1L).get(0).newFiles().get(0).fileName();
        assertThat(record.committables().get(1L)).containsExactly("bucket-0/" + first);
        assertThat(record.files()).hasSize(2).allMatch(f -> Files.exists(dir.resolve(f)));
        assertThat(Files.readString(record()))
                .startsWith("{\"version\":1,\"commitUser\":\"job-1\",\"checkpoint\":2,")
                .contains("{\"checkpoint\":1,\"files\":[\"bucket-0/" + first + "\"]}");
    }

    @Test
    void aCrashBetweenTheRecordAndTheCommitLosesNothingAndPublishesOnce() {
        Table table = table(Map.of());
        SortedMap<Long, List<CommitMessage>> carried = carried(table, 1);
        failEveryPublish();
        assertThatThrownBy(() -> commit(table, carried)).isNotNull();
        assertThat(record()).as("a failed commit's record outlives its committer").exists();
        assertThat(pending(table)).containsExactly(List.of(1L, 2L));

        io.heal();
        TableCommit.Result result = commit(table, carried);
        assertThat(result.alreadyCommitted()).isFalse();
        assertThat(record()).as("deleted as the committer closed after the publish").doesNotExist();
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
        assertThat(table.metadata().snapshots()).hasSize(1);
    }

    @Test
    void aCrashAfterThePublishLeavesADoneRecordAndPublishesNothingTwice() {
        Table table = table(Map.of());
        SortedMap<Long, List<CommitMessage>> carried = carried(table, 1);
        assertThat(commitAndCrash(table, carried).snapshotId()).hasValue(1);
        assertThat(record()).as("the record the crash left").exists();
        assertThat(pending(table)).as("a published checkpoint's record is done").isEmpty();
        assertThat(table.maintenance().check(false).pending().restorePoints()).isEmpty();

        TableCommit.Result retried = commit(table, carried);
        assertThat(retried.alreadyCommitted()).isTrue();
        assertThat(record()).doesNotExist();
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
        assertThat(table.metadata().snapshots()).hasSize(1);
    }

    @Test
    void eachCommitReplacesTheUsersRecordWithOneWriteAndDeletesNothing() throws Exception {
        Table table = table(Map.of());
        SortedMap<Long, List<CommitMessage>> first = carried(table, 1);
        SortedMap<Long, List<CommitMessage>> second = carried(table, 3);
        PendingCommits ledger = table.pendingCommits();
        try (TableCommit commit = committer(table)) {
            io.resetCounts();
            ledger.record(USER, 2, first, 1L);
            commit.commit(request(first));
            ledger.record(USER, 4, second, 3L);
            commit.commit(request(second));
            java.util.function.Predicate<Path> ledgerFiles = p -> p.toString().contains("/pending");
            assertThat(io.calls())
                    .as("calls on the ledger")
                    .filteredOn(c -> c.endsWith(" " + USER) || c.endsWith(" pending"))
                    .containsExactly("OVERWRITE " + USER, "OVERWRITE " + USER);
            assertThat(io.calls(Op.DELETE, ledgerFiles)).isZero();
            assertThat(table.pendingCommits().all())
                    .singleElement()
                    .satisfies(r -> assertThat(r.committables().keySet()).containsExactly(3L, 4L));
            assertThat(pending(table)).isEmpty();
            ledger.forget(USER, 2);
            assertThat(record()).as("kept: a later checkpoint's record").exists();
            ledger.forget(USER, 4);
        }
        assertThat(record()).as("deleted at close, its commit published").doesNotExist();
    }

    @Test
    void aRestoredCommitterReplacesTheRecordOfACheckpointItWasNotRestoredFrom() {
        Table table = table(Map.of());
        table.pendingCommits().record(USER, 7, carried(table, 6), 1L);
        assertThat(pending(table)).containsExactly(List.of(6L, 7L));
        commitAndCrash(table, carried(table, 1));
        assertThat(table.pendingCommits().all())
                .singleElement()
                .satisfies(r -> assertThat(r.checkpoint()).isEqualTo(2));
        assertThat(pending(table)).isEmpty();
    }

    @Test
    void orphanCleanupKeepsEveryFileARecordListsWhateverItsAgeEvenWithForce() throws Exception {
        Table table = table(Map.of());
        SortedMap<Long, List<CommitMessage>> carried = carried(table, 1);
        failEveryPublish();
        assertThatThrownBy(() -> commit(table, carried)).isNotNull();
        io.heal();
        java.nio.file.Path orphan = dir.resolve("bucket-0/data-lost.parquet");
        Files.writeString(orphan, "x");

        Instant now = Instant.now();
        RemoveOrphanFiles.Result result =
                table.maintenance()
                        .removeOrphanFiles(now.plus(Duration.ofDays(1)), false, true, now);
        List<String> prepared = table.pendingCommits().all().get(0).files();
        assertThat(result.files())
                .extracting(RemoveOrphanFiles.Removed::path)
                .anyMatch(p -> p.endsWith("bucket-0/data-lost.parquet"))
                .noneMatch(p -> prepared.stream().anyMatch(p::endsWith));
        assertThat(orphan).doesNotExist();
        assertThat(prepared).hasSize(2).allMatch(f -> Files.exists(dir.resolve(f)));
        assertThat(result.warnings()).isEmpty();

        io.heal();
        assertThat(commit(table, carried).snapshotId()).hasValue(1);
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @Test
    void aDoneRecordProtectsNothingFromOrphanCleanup() throws Exception {
        Table table = table(Map.of());
        // A record whose checkpoint a snapshot of its user reached, listing a file no snapshot
        // names (one left behind where expiration could not delete it).
        TestTables.commit(table, USER, CommitRequest.of(2, carried(table, 1).get(1L)));
        java.nio.file.Path leftover = dir.resolve("bucket-0/data-leftover.parquet");
        Files.writeString(leftover, "x");
        SortedMap<Long, List<CommitMessage>> none = new TreeMap<>();
        table.pendingCommits().record(USER, 2, none, 1L);
        Files.writeString(
                record(),
                Files.readString(record())
                        .replace(
                                "\"committables\":[]",
                                "\"committables\":[{\"checkpoint\":2,\"files\":"
                                        + "[\"bucket-0/data-leftover.parquet\"]}]"));
        assertThat(table.pendingCommits().all().get(0).files())
                .containsExactly("bucket-0/data-leftover.parquet");

        Instant now = Instant.now();
        table.maintenance().removeOrphanFiles(now.plus(Duration.ofDays(1)), false, true, now);
        assertThat(leftover).doesNotExist();
    }

    @Test
    void aLostPreparedFileNamesTheCheckpointToRestoreFrom() throws Exception {
        Table table = table(Map.of());
        TestTables.append(table, 1, List.of(row(0L, "z")));
        SortedMap<Long, List<CommitMessage>> carried = carried(table, 100);
        failEveryPublish();
        assertThatThrownBy(() -> commit(table, carried)).isNotNull();
        io.heal();
        String lost = table.pendingCommits().all().get(0).committables().get(101L).get(0);
        Files.delete(dir.resolve(lost));

        TableCheck.Result check = table.maintenance().check(false);
        assertThat(check.problems()).as("no snapshot needs the file").isEmpty();
        assertThat(check.pending().missing())
                .containsExactly(new PendingCheck.Missing(USER, 101, lost));
        assertThat(check.pending().missing().get(0).problem())
                .isEqualTo(
                        "prepared file of checkpoint 101 of commit user job-1 is missing: no"
                                + " snapshot has it yet, so the job cannot commit it");
        assertThat(check.pending().restorePoints()).hasSize(1);
        assertThat(check.pending().restorePoints().get(0).advice())
                .isEqualTo(
                        "Pending checkpoints 101 of commit user job-1 have missing prepared files,"
                                + " and every later checkpoint of the job carries them: restore job"
                                + " job-1 from checkpoint 100 or earlier and replay from its source"
                                + " offsets");
    }

    @Test
    void aUserUntouchedForTheRetentionIsReportedAndKept() throws Exception {
        Table table = table(Map.of("pending-commit.retention", "1 ms"));
        table.pendingCommits().record(USER, 5, carried(table, 4), 1000L);

        String warning =
                "Commit user job-1 has pending checkpoints 4, 5 last recorded at"
                        + " 1970-01-01T00:00:01Z, longer ago than pending-commit.retention"
                        + " (PT0.001S): its job is probably gone; restore it, or delete its record"
                        + " pending/job-1 to let orphan cleanup remove their files";
        Instant now = Instant.now();
        RemoveOrphanFiles.Result removed =
                table.maintenance()
                        .removeOrphanFiles(now.plus(Duration.ofDays(1)), false, true, now);
        assertThat(removed.warnings()).containsExactly(warning);
        assertThat(removed.files()).isEmpty();
        assertThat(table.maintenance().check(false).pending().untouched())
                .singleElement()
                .satisfies(u -> assertThat(u.warning(Duration.ofMillis(1))).isEqualTo(warning));
        table.maintenance().expireSnapshots();
        assertThat(record()).exists();
    }

    @Test
    void aNonPositiveRetentionIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> table(Map.of("pending-commit.retention", "0 s")))
                .hasMessageContaining(
                        "Invalid value 'PT0S' for option 'pending-commit.retention' of table")
                .hasMessageEndingWith(": must be positive");
    }

    @Test
    void aCorruptRecordStopsOrphanCleanupNamingTheFile() throws Exception {
        Table table = table(Map.of());
        Files.createDirectories(record().getParent());
        Files.writeString(record(), "{\"version\":9}");
        Instant now = Instant.now();
        assertThatThrownBy(
                        () ->
                                table.maintenance()
                                        .removeOrphanFiles(
                                                now.minus(Duration.ofDays(2)), false, false, now))
                .hasMessageContaining(
                        "the ledger of pending commits cannot be read, so which prepared files it"
                                + " protects is unknown and nothing was removed (Corrupt pending"
                                + " commit file ")
                .hasMessageContaining("pending/job-1 of table")
                .hasMessageContaining("format version 9 is not supported (supported: 1 to 1)");
    }
}
