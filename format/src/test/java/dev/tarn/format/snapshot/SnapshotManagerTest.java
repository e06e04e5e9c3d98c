package dev.tarn.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Finding snapshots: hints that are missing, stale or garbage, time travel, and corrupt files. */
class SnapshotManagerTest {

    @TempDir java.nio.file.Path tempDir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private SnapshotManager snapshots;

    @BeforeEach
    void setUp() {
        snapshots =
                new SnapshotManager(
                        io,
                        TablePaths.of(new Path(tempDir.toUri())),
                        "db.t",
                        SnapshotCommit.forFileSystem(io));
    }

    /** Snapshot {@code id}, committed at {@code id * 1000} ms unless told otherwise. */
    private static Snapshot snapshot(long id, long timeMillis) {
        return new Snapshot(
                id,
                0,
                "manifest-list-base-" + id,
                "manifest-list-delta-" + id,
                new Snapshot.Commit("user", id, CommitKind.APPEND, timeMillis, null),
                new Snapshot.RecordCounts(id * 10, 10));
    }

    private void commitUpTo(long last) throws IOException {
        for (long id = 1; id <= last; id++) {
            assertThat(snapshots.tryCommit(snapshot(id, id * 1000))).isTrue();
        }
    }

    /** A fresh manager, so nothing comes from the cache of parsed snapshots. */
    private SnapshotManager fresh() {
        return new SnapshotManager(
                io,
                TablePaths.of(new Path(tempDir.toUri())),
                "db.t",
                SnapshotCommit.forFileSystem(io));
    }

    private void writeFile(String name, String content) throws IOException {
        Files.write(
                tempDir.resolve("snapshot").resolve(name),
                content.getBytes(StandardCharsets.UTF_8));
    }

    private void deleteFile(String name) throws IOException {
        Files.delete(tempDir.resolve("snapshot").resolve(name));
    }

    private String readFile(String name) throws IOException {
        return Files.readString(tempDir.resolve("snapshot").resolve(name));
    }

    /** Snapshots 1 and 2 expired: 3 to 5 remain, the EARLIEST hint still says 1. */
    private void expireFirstTwoOfFive() throws IOException {
        commitUpTo(5);
        deleteFile("snapshot-1");
        deleteFile("snapshot-2");
    }

    @Test
    void tableWithoutSnapshots() {
        assertThat(snapshots.latestId()).isEmpty();
        assertThat(snapshots.earliestId()).isEmpty();
        assertThatThrownBy(() -> snapshots.latest())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Table db.t has no snapshot yet");
        assertThatThrownBy(() -> snapshots.snapshot(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Snapshot 1 of table db.t does not exist (earliest none, latest none)");
        assertThatThrownBy(() -> snapshots.atOrBefore(5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Table db.t has no snapshot at or before 1970-01-01T00:00:00.005Z (5): it"
                                + " has none yet");
    }

    @Test
    void commitWritesHintsAndNeverReplacesASnapshot() throws IOException {
        commitUpTo(3);
        assertThat(readFile(SnapshotManager.LATEST)).isEqualTo("3");
        assertThat(readFile(SnapshotManager.EARLIEST)).isEqualTo("1");
        String before = readFile("snapshot-2");

        assertThat(snapshots.tryCommit(snapshot(2, 99_000))).isFalse();

        assertThat(readFile("snapshot-2")).isEqualTo(before);
        assertThat(fresh().snapshot(2).commit().timeMillis()).isEqualTo(2000);
        assertThat(readFile(SnapshotManager.LATEST)).isEqualTo("3");
    }

    @Test
    void latestAndEarliestWithoutHints() throws IOException {
        expireFirstTwoOfFive();
        deleteFile(SnapshotManager.LATEST);
        deleteFile(SnapshotManager.EARLIEST);

        assertThat(snapshots.latestId()).hasValue(5);
        assertThat(snapshots.earliestId()).hasValue(3);
        assertThat(snapshots.latest().id()).isEqualTo(5);
    }

    @ParameterizedTest(name = "LATEST = {0}")
    @ValueSource(strings = {"1", "4", "9", "0"})
    void latestWithStaleOrTooHighHint(String hint) throws IOException {
        commitUpTo(5);
        writeFile(SnapshotManager.LATEST, hint);

        assertThat(snapshots.latestId()).hasValue(5);
    }

    @ParameterizedTest(name = "EARLIEST = {0}")
    @ValueSource(strings = {"1", "2", "4", "5", "7"})
    void earliestWithExpiredOrTooHighHint(String hint) throws IOException {
        expireFirstTwoOfFive();
        writeFile(SnapshotManager.EARLIEST, hint);

        assertThat(snapshots.earliestId()).hasValue(3);
    }

    @ParameterizedTest(name = "hint \"{0}\"")
    @ValueSource(strings = {"", "abc", "5x", "-1", "3.0", "99999999999999999999", "\u0000\u0007"})
    void garbageHintsFallBackToListing(String garbage) throws IOException {
        expireFirstTwoOfFive();
        writeFile(SnapshotManager.LATEST, garbage);
        writeFile(SnapshotManager.EARLIEST, garbage);

        assertThat(snapshots.latestId()).hasValue(5);
        assertThat(snapshots.earliestId()).hasValue(3);
    }

    @Test
    void listingIgnoresTemporaryAndForeignFiles() throws IOException {
        expireFirstTwoOfFive();
        deleteFile(SnapshotManager.LATEST);
        deleteFile(SnapshotManager.EARLIEST);
        writeFile(".snapshot-9.0b9a1c.tmp", "{");
        writeFile(".snapshot-1.0b9a1c.tmp", "{");
        writeFile("snapshot-", "x");
        writeFile("snapshot-x", "x");
        writeFile("snapshot-6.crc", "x");

        assertThat(snapshots.latestId()).hasValue(5);
        assertThat(snapshots.earliestId()).hasValue(3);
    }

    @ParameterizedTest(name = "at or before {0} ms: snapshot {1}")
    @CsvSource({"1000, 1", "1999, 1", "2000, 2", "3500, 3", "5000, 5", "9999999, 5"})
    void atOrBeforeFindsTheLastSnapshotNoLaterThanTheTime(long time, long expected)
            throws IOException {
        commitUpTo(5);
        assertThat(snapshots.atOrBefore(time).id()).isEqualTo(expected);
    }

    @Test
    void atOrBeforeTakesTheNewestOfSnapshotsWithEqualTimes() throws IOException {
        long[] times = {1000, 2000, 2000, 2000, 3000};
        for (int i = 0; i < times.length; i++) {
            snapshots.tryCommit(snapshot(i + 1, times[i]));
        }
        assertThat(snapshots.atOrBefore(2000).id()).isEqualTo(4);
        assertThat(snapshots.atOrBefore(2999).id()).isEqualTo(4);
        assertThat(snapshots.atOrBefore(1999).id()).isEqualTo(1);
    }

    @Test
    void atOrBeforeTheFirstSnapshotNamesTheEarliest() throws IOException {
        expireFirstTwoOfFive();
        assertThatThrownBy(() -> snapshots.atOrBefore(2500))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Table db.t has no snapshot at or before 1970-01-01T00:00:02.500Z"
                                + " (2500): the earliest, 3, was committed at"
                                + " 1970-01-01T00:00:03Z");
    }

    @Test
    void atOrBeforeBinarySearchesInsteadOfReadingEverySnapshot() throws IOException {
        commitUpTo(200);
        SnapshotManager fresh = fresh();
        io.resetCounts();

        assertThat(fresh.atOrBefore(123_456).id()).isEqualTo(123);

        // log2(200) < 8 probes, plus the earliest and latest (found by reading, which also probes
        // the missing next id): far fewer than a scan of 200 files.
        assertThat(io.calls(Op.READ_ALL_BYTES, FaultInjectingFileIO.named("snapshot-")))
                .isBetween(2, 12);
    }

    @Test
    void missingSnapshotNamesTheRangeThatExists() throws IOException {
        expireFirstTwoOfFive();
        // A fresh manager: one that read snapshot 1 before it expired may still serve it cached.
        SnapshotManager fresh = fresh();
        for (long missing : new long[] {1, 6, 100}) {
            assertThatThrownBy(() -> fresh.snapshot(missing))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Snapshot %d of table db.t does not exist (earliest 3, latest 5)",
                            missing);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "truncated | TRUNCATE | Unexpected end-of-input",
                "empty | | not a JSON object",
                "array | [1, 2] | not a JSON object",
                "not JSON | snapshot 4 | Unrecognized token",
                "missing field | DROP commitKind | missing field 'commitKind'",
                "unknown kind | REPLACE \"APPEND\" \"MERGE\" | No enum constant",
                "newer version | REPLACE \"version\" : 1 \"version\" : 2 | format version 2 is"
                        + " newer than supported 1",
                "other id | REPLACE \"id\" : 4 \"id\" : 3 | it holds snapshot id 3"
            })
    void corruptSnapshotFileIsNamedInTheError(String what, String damage, String reason)
            throws IOException {
        commitUpTo(4);
        String valid = readFile("snapshot-4");
        String content;
        if (damage == null) {
            content = "";
        } else if (damage.equals("TRUNCATE")) {
            content = valid.substring(0, valid.length() / 2);
        } else if (damage.startsWith("DROP ")) {
            content = valid.replaceAll("(?m)^.*\"" + damage.substring(5) + "\".*\\R", "");
        } else if (damage.startsWith("REPLACE ")) {
            String[] parts = damage.substring(8).split(" (?=\")");
            assertThat(valid).contains(parts[0]);
            content = valid.replace(parts[0], parts[1]);
        } else {
            content = damage;
        }
        writeFile("snapshot-4", content);

        assertThatThrownBy(() -> fresh().snapshot(4))
                .as(what)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Corrupt snapshot file " + snapshots.path(4) + ": ")
                .hasMessageContaining(reason);
    }

    @Test
    void jsonRoundTripKeepsEveryField() {
        Snapshot s =
                new Snapshot(
                        7,
                        2,
                        "manifest-list-a",
                        "manifest-list-b",
                        new Snapshot.Commit("job", 42, CommitKind.OVERWRITE, 1234, 999L),
                        new Snapshot.RecordCounts(100, -5));
        assertThat(SnapshotJson.fromJson(SnapshotJson.toJson(s), "test")).isEqualTo(s);
        Snapshot noWatermark = snapshot(1, 5);
        assertThat(SnapshotJson.fromJson(SnapshotJson.toJson(noWatermark), "test"))
                .isEqualTo(noWatermark);
    }
}
