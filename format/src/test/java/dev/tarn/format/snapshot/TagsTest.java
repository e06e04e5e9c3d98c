package dev.tarn.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tag store, and a batch read of a tag. */
class TagsTest {

    @TempDir Path dir;

    private Table table() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new org.apache.flink.core.fs.Path(dir.toUri()),
                        TestTables.ID_V,
                        List.of(),
                        Map.of());
        for (long i = 1; i <= 3; i++) {
            TestTables.append(table, i, List.of(TestTables.row(i, "v" + i)));
        }
        return table;
    }

    @Test
    void storesListsAndDeletesTags() throws Exception {
        Table table = table();
        Tags tags = TableInternals.context(table).tags();
        Snapshot two = TableInternals.context(table).snapshotManager().snapshot(2);
        tags.create("b", two, Duration.ofHours(2), 1000);
        tags.create("a", TableInternals.context(table).snapshotManager().snapshot(3), null, 2000);
        assertThat(tags.list())
                .containsExactly(
                        new Tags.Tag("b", two, 1000, Duration.ofHours(2)),
                        new Tags.Tag(
                                "a",
                                TableInternals.context(table).snapshotManager().snapshot(3),
                                2000,
                                null));
        assertThat(tags.get("b").orElseThrow().expiredAt(1000 + 7_200_001)).isTrue();
        assertThat(tags.get("b").orElseThrow().expiredAt(1000 + 7_200_000)).isFalse();
        assertThat(Files.readString(dir.resolve("tag/tag-b")))
                .contains("\"id\" : 2", "\"tagCreateTimeMillis\" : 1000");
        assertThatThrownBy(() -> tags.create("b", two, null, 3000))
                .hasMessage(
                        "Tag 'b' of table db.t already exists (on snapshot 2); delete it first or"
                                + " choose another name");
        assertThatThrownBy(() -> tags.create("a/b", two, null, 3000))
                .hasMessage(
                        "Invalid tag name 'a/b' for table db.t: use letters, digits, '_', '-' and"
                                + " '.'");
        assertThat(tags.delete("b")).isTrue();
        assertThat(tags.delete("b")).isFalse();
        assertThat(tags.get("b")).isEmpty();
    }

    @Test
    void aBatchReadOfATagReadsItsSnapshot() {
        Table table = table();
        SnapshotLifecycle.createTag(
                TableInternals.context(table), "eod", OptionalLong.of(2), null, 0);
        assertThat(TestTables.readAll(table.withDynamicOptions(Map.of("scan.tag-name", "eod"))))
                .containsExactly("1,v1", "2,v2");
        assertThatThrownBy(
                        () ->
                                TestTables.readAll(
                                        table.withDynamicOptions(
                                                Map.of(
                                                        "scan.tag-name",
                                                        "eod",
                                                        "scan.snapshot-id",
                                                        "1"))))
                .hasMessage(
                        "Conflicting options for table db.t: 'scan.snapshot-id' = 1 and"
                                + " 'scan.tag-name' = 'eod' both say what the read starts at;"
                                + " give one");
        assertThatThrownBy(
                        () ->
                                TestTables.readAll(
                                        table.withDynamicOptions(Map.of("scan.tag-name", "x"))))
                .hasMessage(
                        "Invalid 'scan.tag-name' for table db.t: tag 'x' does not exist; the table"
                                + " has tags [eod]");
    }

    @Test
    void createTagRefusesUnknownSnapshotsAndTakesTheLatestByDefault() {
        Table table = table();
        assertThatThrownBy(
                        () ->
                                SnapshotLifecycle.createTag(
                                        TableInternals.context(table),
                                        "t",
                                        OptionalLong.of(9),
                                        null,
                                        0))
                .hasMessage(
                        "Cannot create tag 't' of table db.t: snapshot 9 does not exist; the table"
                                + " has snapshots 1 to 3");
        assertThat(
                        SnapshotLifecycle.createTag(
                                        TableInternals.context(table),
                                        "t",
                                        OptionalLong.empty(),
                                        null,
                                        0)
                                .snapshot()
                                .id())
                .isEqualTo(3);
    }
}
