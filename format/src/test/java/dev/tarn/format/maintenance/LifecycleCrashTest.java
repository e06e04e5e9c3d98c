package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.LifecycleTables.assertNoLostOrLeakedFiles;
import static dev.tarn.format.maintenance.LifecycleTables.commit;
import static dev.tarn.format.maintenance.LifecycleTables.readSnapshot;
import static dev.tarn.format.maintenance.LifecycleTables.readTag;
import static dev.tarn.format.maintenance.LifecycleTables.rows;
import static dev.tarn.format.maintenance.LifecycleTables.snapshotIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration and rollback interrupted at each of their deletes (a file system that fails the k-th
 * delete): what must stay readable does, and running again finishes the job without losing or
 * leaking a file.
 */
class LifecycleCrashTest {

    @TempDir Path root;

    /**
     * Snapshots 1-6 append ten rows each (rows of snapshot n: 0 to 10n - 1), 7 compacts, 8 appends,
     * tag 'eod' is on snapshot 3 and 9 compacts again; {@code expected} gets each snapshot's rows.
     */
    private static Table history(
            FaultInjectingFileIO io, Path dir, Map<Long, List<String>> expected) {
        Table table = LifecycleTables.create(io, dir, Map.of());
        for (int i = 0; i < 6; i++) {
            commit(table, i * 10, i * 10 + 10);
            expected.put((long) i + 1, rows(0, i * 10 + 10));
        }
        FullCompaction.run(TableInternals.context(table));
        expected.put(7L, rows(0, 60));
        commit(table, 60, 70);
        expected.put(8L, rows(0, 70));
        SnapshotLifecycle.createTag(
                TableInternals.context(table), "eod", OptionalLong.of(3), null, 0);
        FullCompaction.run(TableInternals.context(table));
        expected.put(9L, rows(0, 70));
        assertThat(snapshotIds(table)).hasSize(9);
        return table;
    }

    private static void assertReads(Table table, Map<Long, List<String>> expected, long from) {
        for (long id : snapshotIds(table)) {
            if (id >= from) {
                assertThat(readSnapshot(table, id))
                        .as("snapshot %d", id)
                        .isEqualTo(expected.get(id));
            }
        }
        assertThat(readTag(table, "eod")).isEqualTo(rows(0, 30));
    }

    @Test
    void expirationInterruptedAtEachDeleteFinishesOnTheNextRun() throws IOException {
        ExpireRequest keepTwo = new ExpireRequest(2, 2, Long.MAX_VALUE, 100);
        for (int k = 1; ; k++) {
            Path dir = Files.createDirectory(root.resolve("crash-" + k));
            FaultInjectingFileIO io = new FaultInjectingFileIO();
            Map<Long, List<String>> expected = new HashMap<>();
            Table table = history(io, dir, expected);
            io.failNth(Op.DELETE, p -> true, k);
            try {
                SnapshotLifecycle.expire(
                        TableInternals.context(table), keepTwo, System.currentTimeMillis());
                assertThat(k).as("deletes of a full run").isGreaterThan(10);
                assertThat(snapshotIds(table)).containsExactly(8L, 9L);
                assertNoLostOrLeakedFiles(table, dir);
                return; // k is past the last delete: the run completed.
            } catch (RuntimeException crash) {
                assertThat(crash).hasMessageContaining("Injected failure of DELETE");
            }
            // What the interrupted run decided to keep (8 and 9) and the tag still read.
            assertReads(table, expected, 8);
            io.heal();
            // Even asked to keep more, the next run finishes what was decided.
            SnapshotLifecycle.expire(
                    TableInternals.context(table),
                    new ExpireRequest(null, 9, Long.MAX_VALUE, 100),
                    System.currentTimeMillis());
            assertThat(snapshotIds(table)).as("after crash %d", k).containsExactly(8L, 9L);
            assertReads(table, expected, 8);
            assertNoLostOrLeakedFiles(table, dir);
            assertThat(TableInternals.context(table).snapshotManager().expiringBefore()).isEmpty();
        }
    }

    @Test
    void rollbackInterruptedAtEachDeleteLeavesAConsistentPrefixAndFinishes() throws IOException {
        for (int k = 1; ; k++) {
            Path dir = Files.createDirectory(root.resolve("rollback-" + k));
            FaultInjectingFileIO io = new FaultInjectingFileIO();
            Map<Long, List<String>> expected = new HashMap<>();
            Table table = history(io, dir, expected);
            io.failNth(Op.DELETE, p -> true, k);
            boolean crashed;
            try {
                SnapshotLifecycle.rollbackTo(TableInternals.context(table), 4);
                crashed = false;
            } catch (RuntimeException crash) {
                assertThat(crash).hasMessageContaining("Injected failure of DELETE");
                crashed = true;
            }
            // A prefix of the history, every snapshot of it readable, the latest too.
            List<Long> ids = snapshotIds(table);
            assertThat(ids)
                    .isEqualTo(
                            java.util.stream.LongStream.rangeClosed(1, ids.size())
                                    .boxed()
                                    .toList());
            assertReads(table, expected, 1);
            io.heal();
            SnapshotLifecycle.rollbackTo(TableInternals.context(table), 4);
            assertThat(snapshotIds(table)).containsExactly(1L, 2L, 3L, 4L);
            assertReads(table, expected, 1);
            if (!crashed) {
                assertNoLostOrLeakedFiles(table, dir);
            }
            // Writable at once: the next commit is snapshot 5.
            assertThat(commit(table, 100, 105)).isEqualTo(5);
            assertThat(readSnapshot(table, 5)).isEqualTo(sorted(rows(0, 40), rows(100, 105)));
            if (!crashed) {
                return;
            }
        }
    }

    @Test
    void rollbackToATagRestoresItsExpiredSnapshot() {
        Path dir = root.resolve("tag");
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        Map<Long, List<String>> expected = new HashMap<>();
        Table table = history(io, dir, expected);
        SnapshotLifecycle.expire(
                TableInternals.context(table),
                new ExpireRequest(1, 1, Long.MAX_VALUE, 100),
                System.currentTimeMillis());
        assertThat(snapshotIds(table)).containsExactly(9L);
        SnapshotLifecycle.RollbackResult result =
                SnapshotLifecycle.rollbackToTag(TableInternals.context(table), "eod");
        assertThat(result.summary())
                .startsWith("Rolled table db.t back to snapshot 3: removed 1 snapshot");
        assertThat(snapshotIds(table)).containsExactly(3L);
        assertThat(TableInternals.context(table).snapshotManager().earliestId()).hasValue(3);
        assertThat(readSnapshot(table, 3)).isEqualTo(rows(0, 30));
        assertNoLostOrLeakedFiles(table, dir);
        assertThat(commit(table, 100, 101)).isEqualTo(4);
        assertThat(LifecycleTables.readSnapshot(table, 4))
                .isEqualTo(sorted(rows(0, 30), rows(100, 101)));
    }

    @Test
    void rollbackRefusesUnknownSnapshotsAndLaterTags() {
        Path dir = root.resolve("refuse");
        Table table = history(new FaultInjectingFileIO(), dir, new HashMap<>());
        assertThatThrownBy(() -> SnapshotLifecycle.rollbackTo(TableInternals.context(table), 42))
                .hasMessage(
                        "Cannot roll back table db.t to snapshot 42: it does not exist; the table"
                                + " has snapshots 1 to 9");
        assertThatThrownBy(() -> SnapshotLifecycle.rollbackTo(TableInternals.context(table), 2))
                .hasMessage(
                        "Cannot roll back table db.t to snapshot 2: tags 'eod' (snapshot 3) pin"
                                + " later snapshots; delete them first");
        assertThatThrownBy(
                        () ->
                                SnapshotLifecycle.rollbackToTag(
                                        TableInternals.context(table), "nope"))
                .hasMessage("Cannot roll back table db.t to tag 'nope': no such tag");
        assertThat(snapshotIds(table)).hasSize(9);
    }

    private static List<String> sorted(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        all.sort(null);
        return all;
    }
}
