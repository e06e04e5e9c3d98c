package dev.tarn.format.read;

import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read that follows a table: where it starts, and what each kind of snapshot brings. */
class StreamScanTest {

    @TempDir java.nio.file.Path tempDir;

    private Table table(Map<String, String> options) {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.toUri()),
                ID_V_DT,
                List.of("dt"),
                options);
    }

    private static List<String> rows(Table table, List<Split> splits) throws Exception {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                RowData row;
                while ((row = reader.next()) != null) {
                    rows.add(row.getRowKind().shortString() + row.getLong(0));
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void startsByModeAndFollowsEachSnapshotsOwnRows() throws Exception {
        Table table = table(Map.of("bucket", "2", "bucket-key", "id"));
        append(table, 1, List.of(row(1L, "a", "d1"), row(2L, "b", "d2")));
        append(table, 2, List.of(row(3L, "c", "d1")));

        StreamScan.Start full = table.newStreamScan(null).start();
        assertThat(full.fullSnapshot().id()).isEqualTo(2);
        assertThat(rows(table, full.splits())).containsExactly("+I1", "+I2", "+I3");
        assertThat(full.nextSnapshotId()).isEqualTo(3);

        Table latest = table.withDynamicOptions(Map.of("scan.mode", "latest"));
        StreamScan.Start fromNow = latest.newStreamScan(null).start();
        assertThat(fromNow.splits()).isEmpty();
        assertThat(fromNow.nextSnapshotId()).isEqualTo(3);

        Table fromOne = table.withDynamicOptions(Map.of("scan.snapshot-id", "1"));
        StreamScan scan = fromOne.newStreamScan(null);
        assertThat(scan.start().nextSnapshotId()).isEqualTo(1);
        assertThat(rows(table, scan.changes(1).orElseThrow().splits()))
                .containsExactly("+I1", "+I2");
        assertThat(rows(table, scan.changes(2).orElseThrow().splits())).containsExactly("+I3");
        assertThat(scan.changes(3)).as("not published yet").isEmpty();
    }

    @Test
    void eachPlanCountsTheManifestsItReadAndTheFilesItSkipped() throws Exception {
        Table table = table(Map.of("bucket", "2", "bucket-key", "id"));
        append(table, 1, List.of(row(1L, "a", "d1"), row(2L, "b", "d2")));
        append(table, 2, List.of(row(3L, "c", "d2")));
        append(table, 3, List.of(row(4L, "d", "d1")));
        Predicate dt =
                new Predicate.Leaf(
                        Predicate.Op.EQ,
                        2,
                        "dt",
                        VarCharType.STRING_TYPE,
                        List.of(StringData.fromString("d1")));
        Table fromTwo =
                table.withDynamicOptions(
                        Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id", "2"));
        StreamScan scan = fromTwo.newStreamScan(dt);

        StreamScan.Start start = scan.start();
        int manifests = table.metadata().files().manifests(table.metadata().snapshot(2)).size();
        assertThat(start.stats().manifests()).isEqualTo(manifests);
        assertThat(start.stats().resultedFiles()).as("snapshot 2's file of d1").isEqualTo(1);
        assertThat(start.stats().skippedFiles()).as("its files of d2").isEqualTo(2);

        StreamScan.Changes third = scan.changes(3).orElseThrow();
        assertThat(rows(table, third.splits())).containsExactly("+I4");
        assertThat(third.stats().manifests()).as("the snapshot's one delta manifest").isEqualTo(1);
        assertThat(third.stats().resultedFiles()).isEqualTo(1);
        assertThat(third.stats().skippedFiles()).isZero();

        Table oneToThree = table.withDynamicOptions(Map.of("incremental-between", "1,3"));
        StreamScan.Start between =
                oneToThree.newStreamScan(dt).between(oneToThree.config().stream().between());
        assertThat(between.changes()).hasSize(2);
        assertThat(between.changes().get(0).stats().skippedFiles())
                .as("d2 of snapshot 2")
                .isEqualTo(1);
        assertThat(between.stats().manifests()).isEqualTo(2);
        assertThat(between.stats().skippedFiles()).isEqualTo(1);
        assertThat(between.stats().resultedFiles()).isEqualTo(1);
        assertThat(between.nextSnapshotId()).isEqualTo(4);
    }

    @Test
    void aCompactionBringsNothingAndAnOverwriteOnlyWhenAsked() throws Exception {
        Table table = table(Map.of("bucket", "1"));
        List<CommitMessage> first = write(table, List.of(row(1L, "a", "d1")));
        TestTables.commit(table, "user", CommitRequest.of(1, first));
        CommitMessage original = first.get(0);
        var rewritten = write(table, List.of(row(1L, "a", "d1"))).get(0).newFiles();
        TestTables.commit(
                table,
                "compactor",
                CommitRequest.of(
                        2,
                        List.of(
                                new CommitMessage(
                                        original.partition(),
                                        original.bucket(),
                                        original.totalBuckets(),
                                        rewritten,
                                        original.newFiles()))));
        TestTables.commit(
                table,
                "user",
                CommitRequest.of(3, write(table, List.of(row(5L, "e", "d1"))))
                        .overwriting(p -> true));

        StreamScan skipping = table.newStreamScan(null);
        assertThat(skipping.changes(2).orElseThrow().splits()).as("COMPACT").isEmpty();
        assertThat(skipping.changes(3).orElseThrow().splits()).as("OVERWRITE").isEmpty();

        Table overwrites = table.withDynamicOptions(Map.of("streaming-read-overwrite", "true"));
        StreamScan following = overwrites.newStreamScan(null);
        assertThat(rows(table, following.changes(3).orElseThrow().splits()))
                .containsExactly("+I5", "-D1");
    }

    /** A table {@code (id BIGINT NOT NULL, n BIGINT)} keyed by id, n summed. */
    private Table aggregation(String producer) {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(false), new BigIntType()},
                        new String[] {"id", "n"});
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.resolve(producer).toUri()),
                "db.sums",
                TableSchema.create(
                        type,
                        List.of(),
                        List.of("id"),
                        Map.of(
                                "bucket", "1",
                                "merge-engine", "aggregation",
                                "fields.n.aggregate-function", "sum",
                                "changelog-producer", producer),
                        null));
    }

    @Test
    void aLookupTableIsFollowedThroughItsChangelogWhateverItsMergeEngine() throws Exception {
        Table table = aggregation("lookup");
        append(table, 1, List.of(row(1L, 10L), row(2L, 20L)));
        append(table, 2, List.of(row(1L, 5L), row(3L, 1L)));
        StreamScan scan =
                table.withDynamicOptions(Map.of("scan.snapshot-id", "1")).newStreamScan(null);
        List<Split> second = scan.changes(2).orElseThrow().splits();
        assertThat(second).extracting(Split::kind).containsOnly(Split.Kind.CHANGELOG);
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : second) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.add(r.getRowKind().shortString() + r.getLong(0) + "=" + r.getLong(1));
                }
            }
        }
        assertThat(rows).containsExactly("-U1=10", "+U1=15", "+I3=1");

        assertThatThrownBy(() -> aggregation("none").newStreamScan(null))
                .hasMessage(
                        "Cannot follow table db.sums in a streaming read: its merge-engine"
                                + " 'aggregation' folds the versions of a key, so neither its new"
                                + " versions nor its input (changelog-producer 'none') are the"
                                + " changes of its rows. Set 'changelog-producer' = 'lookup' or"
                                + " 'full-compaction' (ALTER TABLE), whose writers compute them,"
                                + " and follow the commits made after it");
    }

    @Test
    void aNextSnapshotThatExpiredFailsTheRead() throws Exception {
        Table table = table(Map.of("bucket", "1"));
        append(table, 1, List.of(row(1L, "a", "d1")));
        append(table, 2, List.of(row(2L, "b", "d1")));
        append(table, 3, List.of(row(3L, "c", "d1")));
        StreamScan scan = table.newStreamScan(null);
        scan.checkNotExpired(2);
        scan.checkNotExpired(4); // not published yet: no loss
        Files.delete(tempDir.resolve("snapshot/snapshot-1"));
        Files.delete(tempDir.resolve("snapshot/snapshot-2"));
        assertThatThrownBy(() -> scan.checkNotExpired(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "Snapshot 2 of table db.t, the next one this streaming read needs, has"
                                + " expired (the table keeps snapshots 3 to 3)")
                .hasMessageContaining("'snapshot.time-retained'");
    }

    @Test
    void aTableGoneUnderTheReadFailsIt() throws Exception {
        Table table = table(Map.of("bucket", "1"));
        append(table, 1, List.of(row(1L, "a", "d1")));
        StreamScan scan = table.newStreamScan(null);
        scan.checkNotExpired(2);
        // A rename moves the directory away: what stays behind is no table.
        java.nio.file.Path renamed = tempDir.resolveSibling(tempDir.getFileName() + "-renamed");
        Files.move(tempDir, renamed);
        assertThatThrownBy(() -> scan.checkNotExpired(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Table db.t is gone from ")
                .hasMessageEndingWith(
                        " while this streaming read followed it: it was dropped or renamed (its"
                                + " schema file schema-0 is missing). Restart the read on the"
                                + " table's current name");
        Files.move(renamed, tempDir);
    }

    @Test
    void aReadStartsAtATagWhoseSnapshotExpired() throws Exception {
        Table table = table(Map.of("bucket", "1"));
        append(table, 1, List.of(row(1L, "a", "d1"), row(2L, "b", "d1")));
        append(table, 2, List.of(row(3L, "c", "d1")));
        dev.tarn.format.maintenance.SnapshotLifecycle.createTag(
                TableInternals.context(table), "eod", java.util.OptionalLong.of(1), null, 0);
        append(table, 3, List.of(row(4L, "d", "d1")));
        Files.delete(tempDir.resolve("snapshot/snapshot-1"));

        Table fromTag = table.withDynamicOptions(Map.of("scan.tag-name", "eod"));
        StreamScan full = fromTag.newStreamScan(null);
        StreamScan.Start start = full.start();
        assertThat(start.fullSnapshot().id()).isEqualTo(1);
        assertThat(rows(table, start.splits())).containsExactly("+I1", "+I2");
        assertThat(start.nextSnapshotId()).isEqualTo(2);
        assertThat(rows(table, full.changes(2).orElseThrow().splits())).containsExactly("+I3");

        StreamScan changes =
                table.withDynamicOptions(
                                Map.of("scan.tag-name", "eod", "scan.mode", "from-snapshot"))
                        .newStreamScan(null);
        assertThat(changes.start().nextSnapshotId()).isEqualTo(1);
        assertThat(changes.start().splits()).isEmpty();

        assertThatThrownBy(
                        () ->
                                table.withDynamicOptions(
                                                Map.of(
                                                        "scan.tag-name",
                                                        "eod",
                                                        "scan.mode",
                                                        "latest"))
                                        .newStreamScan(null)
                                        .start())
                .hasMessage(
                        "Conflicting options for table db.t: 'scan.tag-name' = 'eod' does not"
                                + " go with 'scan.mode' = 'latest'; it goes with 'default',"
                                + " 'from-snapshot' or 'from-snapshot-full'");
        assertThatThrownBy(
                        () ->
                                table.withDynamicOptions(Map.of("scan.tag-name", "nope"))
                                        .newStreamScan(null)
                                        .start())
                .hasMessageStartingWith(
                        "Invalid 'scan.tag-name' for table db.t: tag 'nope' does not exist; the"
                                + " table has tags [eod]");
    }

    @Test
    void startOptionsThatCannotWorkAreRefused() {
        Table table = table(Map.of("bucket", "1"));
        append(table, 1, List.of(row(1L, "a", "d1")));
        assertThatThrownBy(
                        () ->
                                table.withDynamicOptions(Map.of("scan.mode", "from-timestamp"))
                                        .newStreamScan(null)
                                        .start())
                .hasMessage(
                        "Option 'scan.mode' = 'from-timestamp' of table db.t needs"
                                + " 'scan.timestamp-millis': the time to read at or start"
                                + " after; give one as a hint");
        assertThatThrownBy(
                        () ->
                                table.withDynamicOptions(
                                                Map.of(
                                                        "scan.snapshot-id",
                                                        "1",
                                                        "scan.timestamp-millis",
                                                        "5"))
                                        .newStreamScan(null)
                                        .start())
                .hasMessage(
                        "Conflicting options for table db.t: 'scan.snapshot-id' = 1 and"
                                + " 'scan.timestamp-millis' = 5 (1970-01-01T00:00:00.005Z) both"
                                + " say what the read starts at; give one");
    }
}
