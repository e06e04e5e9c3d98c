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
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireResult;
import dev.tarn.format.snapshot.Consumers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiration: what it keeps (counts, time, limit, consumers, tags) and what it deletes.
 */
class SnapshotExpirationTest {

    private static final long NEVER = Long.MAX_VALUE;

    @TempDir Path dir;

    private Table table(Map<String, String> options) {
        return LifecycleTables.create(FileIO.flinkFileSystems(), dir, options);
    }

    /** Ten commits of ten rows each: snapshot n holds rows 0 to 10n - 1. */
    private static void tenCommits(Table table) {
        for (int i = 0; i < 10; i++) {
            commit(table, i * 10, i * 10 + 10);
        }
    }

    private static ExpireResult expire(
            Table table, Integer max, Integer min, long olderThan, Integer limit) {
        return SnapshotLifecycle.expire(
                TableInternals.context(table),
                new ExpireRequest(max, min, olderThan, limit),
                System.currentTimeMillis());
    }

    private static void assertRetainedRead(Table table) {
        for (long id : snapshotIds(table)) {
            assertThat(readSnapshot(table, id)).as("snapshot %d", id).isEqualTo(rows(0, id * 10));
        }
    }

    @Test
    void keepsAtMostRetainMaxAndDeletesTheFilesOnlyExpiredSnapshotsHeld() {
        Table table = table(Map.of());
        tenCommits(table);
        FullCompaction.run(TableInternals.context(table)); // 11: replaces every file of snapshot 10
        // No snapshot is old by time: only the count expires them.
        ExpireResult result = expire(table, 3, 1, 0, 100);
        assertThat(result.snapshots()).isEqualTo(8);
        assertThat(snapshotIds(table)).containsExactly(9L, 10L, 11L);
        assertThat(readSnapshot(table, 11)).isEqualTo(rows(0, 100));
        assertThat(readSnapshot(table, 9)).isEqualTo(rows(0, 90));
        assertNoLostOrLeakedFiles(table, dir);
        expire(table, 1, 1, NEVER, 100);
        assertThat(snapshotIds(table)).containsExactly(11L);
        assertThat(result.summary()).startsWith("Expired 8 snapshots of table db.t");
        assertNoLostOrLeakedFiles(table, dir);
        // Only the compacted files are left: one per bucket.
        assertThat(LifecycleTables.dataFilesOnDisk(dir)).hasSize(2);
        assertThat(TableInternals.context(table).snapshotManager().earliestId()).hasValue(11);
    }

    @Test
    void keepsRetainMinAndYoungSnapshots() {
        Table table = table(Map.of());
        tenCommits(table);
        long fourth =
                TableInternals.context(table).snapshotManager().snapshot(4).commit().timeMillis();
        // Only snapshots committed before the fourth are old enough; the counts allow more.
        expire(table, null, 1, fourth, 100);
        assertThat(snapshotIds(table).get(0)).isLessThanOrEqualTo(4L);
        assertThat(snapshotIds(table)).contains(4L);
        expire(table, null, 7, NEVER, 100);
        assertThat(snapshotIds(table))
                .containsExactlyElementsOf(LongStream.rangeClosed(4, 10).boxed().toList());
        assertRetainedRead(table);
        // The table's options: keep 10 (min), for an hour: nothing goes.
        assertThat(SnapshotLifecycle.expire(TableInternals.context(table)).snapshots()).isZero();
        assertNoLostOrLeakedFiles(table, dir);
    }

    @Test
    void anAutomaticRunRemovesAtMostTheLimitAndAnExplicitOneAllItsArgumentsAllow() {
        Table table =
                table(
                        Map.of(
                                "snapshot.expire.limit", "3",
                                "snapshot.num-retained.min", "1",
                                "snapshot.num-retained.max", "1"));
        tenCommits(table);
        // By the table's options, as after a commit: at most snapshot.expire.limit.
        ExpireResult automatic = SnapshotLifecycle.expire(TableInternals.context(table));
        assertThat(automatic.snapshots()).isEqualTo(3);
        assertThat(automatic.left()).isEqualTo(7);
        assertThat(snapshotIds(table).get(0)).isEqualTo(4L);
        // An explicit max_deletes bounds an explicit run.
        assertThat(expire(table, 1, null, NEVER, 2).snapshots()).isEqualTo(2);
        assertThat(snapshotIds(table).get(0)).isEqualTo(6L);
        // Without one, an explicit run removes all that the table's options let go.
        ExpireResult explicit = expire(table, null, null, NEVER, null);
        assertThat(explicit.snapshots()).isEqualTo(4);
        assertThat(explicit.left()).isEqualTo(1);
        assertThat(explicit.summary())
                .isEqualTo(
                        "Expired 4 snapshots of table db.t, 1 left: deleted 0 data files, 8"
                                + " manifest files and 0 expired tags");
        assertThat(snapshotIds(table)).containsExactly(10L);
        assertRetainedRead(table);
        assertNoLostOrLeakedFiles(table, dir);
    }

    @Test
    void aRunThatExpiresNothingSaysHowManyAreLeft() {
        Table table = table(Map.of());
        assertThat(SnapshotLifecycle.expire(TableInternals.context(table)).left()).isZero();
        tenCommits(table);
        ExpireResult result = SnapshotLifecycle.expire(TableInternals.context(table));
        assertThat(result.snapshots()).isZero();
        assertThat(result.left()).isEqualTo(10);
    }

    @Test
    void aConsumerKeepsWhatItNeedsUntilItExpires() throws Exception {
        Table table = table(Map.of("consumer.expiration-time", "1 h"));
        tenCommits(table);
        Consumers consumers =
                new Consumers(table.io(), TableInternals.context(table).paths(), table.name());
        long now = System.currentTimeMillis();
        consumers.record("job", 4, now);
        expire(table, 1, 1, NEVER, 100);
        assertThat(snapshotIds(table).get(0)).isEqualTo(4L);
        assertRetainedRead(table);
        // Not updated for more than consumer.expiration-time: it protects nothing any more.
        consumers.record("job", 4, now - Duration.ofHours(2).toMillis());
        consumers.record("live", 10, now);
        expire(table, 1, 1, NEVER, 100);
        assertThat(snapshotIds(table)).containsExactly(10L);
        assertThat(consumers.all())
                .as("the expired consumer is retired, the live one kept")
                .extracting(Consumers.Consumer::id)
                .containsExactly("live");
        assertNoLostOrLeakedFiles(table, dir);
    }

    @Test
    void aTagKeepsItsSnapshotReadableThroughCompactionAndExpiration() {
        Table table = table(Map.of());
        tenCommits(table);
        SnapshotLifecycle.createTag(
                TableInternals.context(table),
                "eod",
                OptionalLong.of(3),
                null,
                System.currentTimeMillis());
        FullCompaction.run(TableInternals.context(table));
        commit(table, 100, 110);
        expire(table, 1, 1, NEVER, 100);
        assertThat(snapshotIds(table)).containsExactly(12L);
        assertThat(readTag(table, "eod")).isEqualTo(rows(0, 30));
        assertThat(readSnapshot(table, 12)).isEqualTo(rows(0, 110));
        assertNoLostOrLeakedFiles(table, dir);
        // Deleting the tag deletes what only it kept.
        SnapshotLifecycle.deleteTag(TableInternals.context(table), "eod");
        assertNoLostOrLeakedFiles(table, dir);
        assertThat(LifecycleTables.dataFilesOnDisk(dir)).hasSize(4);
    }

    @Test
    void expirationRemovesTagsPastTheirRetention() {
        Table table = table(Map.of("tag.default-time-retained", "1 h"));
        tenCommits(table);
        long now = System.currentTimeMillis();
        SnapshotLifecycle.createTag(
                TableInternals.context(table), "old", OptionalLong.of(2), null, now - 7_200_000);
        SnapshotLifecycle.createTag(
                TableInternals.context(table), "kept", OptionalLong.of(3), null, now);
        SnapshotLifecycle.createTag(
                TableInternals.context(table),
                "forever",
                OptionalLong.of(4),
                Duration.ofDays(3650),
                now - 7_200_000);
        ExpireResult result =
                SnapshotLifecycle.expire(
                        TableInternals.context(table), new ExpireRequest(1, 1, NEVER, 100), now);
        assertThat(result.tags()).isEqualTo(1);
        assertThat(TableInternals.context(table).tags().list())
                .extracting(t -> t.name())
                .containsExactly("kept", "forever");
        assertThat(readTag(table, "kept")).isEqualTo(rows(0, 30));
        assertThat(readTag(table, "forever")).isEqualTo(rows(0, 40));
        assertNoLostOrLeakedFiles(table, dir);
    }

    @Test
    void aBatchReadOfAnExpiredSnapshotSaysItExpired() {
        Table table = table(Map.of());
        tenCommits(table);
        expire(table, 2, 2, NEVER, 100);
        assertThatThrownBy(() -> readSnapshot(table, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid 'scan.snapshot-id' for table db.t: snapshot 3 does not exist; the"
                                + " table has snapshots 9 to 10. Snapshot 3 has expired: the table"
                                + " keeps snapshots for 'snapshot.time-retained' = PT1H (at least"
                                + " 'snapshot.num-retained.min' = 10 of them); tag a snapshot to"
                                + " keep it longer");
    }

    @Test
    void refusesARequestThatKeepsNothingOrRemovesNothing() {
        Table table = table(Map.of());
        tenCommits(table);
        assertThatThrownBy(() -> expire(table, null, 0, NEVER, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot expire snapshots of table db.t: retain_min 0 keeps no snapshot;"
                                + " it must be at least 1");
        assertThatThrownBy(() -> expire(table, null, 1, NEVER, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot expire snapshots of table db.t: max_deletes 0 removes no"
                                + " snapshot; it must be at least 1");
        assertThat(snapshotIds(table)).hasSize(10);
    }

    @Test
    void refusesARetainMaxBelowRetainMinNamingBoth() {
        Table table = table(Map.of());
        tenCommits(table);
        assertThatThrownBy(() -> expire(table, 3, 4, NEVER, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot expire snapshots of table db.t: retain_max 3 is less than"
                                + " retain_min 4");
        // retain_min omitted: the table's snapshot.num-retained.min (10) applies, as in Paimon.
        assertThatThrownBy(() -> expire(table, 1, null, NEVER, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot expire snapshots of table db.t: retain_max 1 is less than"
                                + " retain_min 10 (the table's 'snapshot.num-retained.min');"
                                + " give a retain_min of at most 1 too");
        assertThat(snapshotIds(table)).hasSize(10);

        java.nio.file.Path other = dir.resolve("other");
        Table capped =
                LifecycleTables.create(
                        FileIO.flinkFileSystems(),
                        other,
                        Map.of("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "2"));
        tenCommits(capped);
        assertThatThrownBy(() -> expire(capped, null, 3, NEVER, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot expire snapshots of table db.t: retain_max 2 (the table's"
                                + " 'snapshot.num-retained.max') is less than retain_min 3;"
                                + " give a retain_max of at least 3 too");
        assertThat(snapshotIds(capped)).hasSize(10);
    }
}
