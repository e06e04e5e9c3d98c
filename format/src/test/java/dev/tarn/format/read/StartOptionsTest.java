package dev.tarn.format.read;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The options that say what a read starts at ({@code scan.snapshot-id}, {@code
 * scan.timestamp-millis}, {@code scan.tag-name}, {@code incremental-between}) and {@code
 * scan.mode}: at most one of the four, each only with a mode that takes it, and a mode that needs
 * one only with one, checked alike by the batch planner, the streaming planner and the bounded read
 * of changes.
 */
class StartOptionsTest {

    private static final List<String> MODES =
            List.of(
                    "default",
                    "latest-full",
                    "latest",
                    "from-snapshot",
                    "from-snapshot-full",
                    "from-timestamp");

    @TempDir java.nio.file.Path tempDir;

    private Table table;

    /** When snapshot 1 was committed: a time the table's history holds. */
    private long firstCommit;

    @BeforeEach
    void setUp() throws InterruptedException {
        table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        ID_V,
                        List.of(),
                        Map.of("bucket", "1", "bucket-key", "id"));
        append(table, 1, List.of(row(1L, "a")));
        firstCommit =
                TableInternals.context(table).snapshotManager().snapshot(1).commit().timeMillis();
        while (System.currentTimeMillis() <= firstCommit) {
            Thread.sleep(1);
        }
        append(table, 2, List.of(row(2L, "b")));
        SnapshotLifecycle.createTag(
                TableInternals.context(table), "eod", OptionalLong.of(1), null, 0);
    }

    /** One option that says what a read starts at: its key, its value, and how errors show it. */
    private record Position(String key, String value, String shown) {}

    /** Each of the four, every one of them selecting snapshot 1, in the order errors name them. */
    private List<Position> positions() {
        return List.of(
                new Position("scan.snapshot-id", "1", "1"),
                new Position(
                        "scan.timestamp-millis",
                        String.valueOf(firstCommit),
                        firstCommit + " (" + Instant.ofEpochMilli(firstCommit) + ")"),
                new Position("scan.tag-name", "eod", "'eod'"),
                new Position("incremental-between", "1,2", "'1,2'"));
    }

    /** The modes each option goes with. */
    private static List<String> modesTaking(String key) {
        return switch (key) {
            case "scan.snapshot-id", "scan.tag-name" ->
                    List.of("default", "from-snapshot", "from-snapshot-full");
            case "scan.timestamp-millis" -> List.of("default", "from-timestamp");
            case "incremental-between" -> List.of("default");
            default -> throw new IllegalArgumentException(key);
        };
    }

    @Test
    void everyTwoPositionsConflictInBatchStreamingAndBetween() {
        List<Position> positions = positions();
        for (int i = 0; i < positions.size(); i++) {
            for (int j = i + 1; j < positions.size(); j++) {
                Position a = positions.get(i);
                Position b = positions.get(j);
                Table both = table.withDynamicOptions(Map.of(a.key, a.value, b.key, b.value));
                assertRefusedByEveryPlanner(
                        both,
                        String.format(
                                "Conflicting options for table db.t: '%s' = %s and '%s' = %s both"
                                        + " say what the read starts at; give one",
                                a.key, a.shown, b.key, b.shown));
            }
        }
    }

    @Test
    void aModeThatNeedsAPositionIsRefusedWithoutOneInBatchAndStreaming() {
        for (String mode : MODES) {
            Table bare = table.withDynamicOptions(Map.of("scan.mode", mode));
            String needs =
                    switch (mode) {
                        case "from-snapshot", "from-snapshot-full" ->
                                "'scan.snapshot-id' or 'scan.tag-name': the snapshot to read or"
                                        + " start at";
                        case "from-timestamp" ->
                                "'scan.timestamp-millis': the time to read at or start after";
                        default -> null;
                    };
            if (needs == null) {
                assertThat(bare.newScan().plan().snapshot().id()).as(mode).isEqualTo(2);
                bare.newStreamScan(null).checkStart();
            } else {
                assertRefusedByBatchAndStreaming(
                        bare,
                        "Option 'scan.mode' = '"
                                + mode
                                + "' of table db.t needs "
                                + needs
                                + "; give one as a hint");
            }
        }
    }

    @Test
    void aPositionIsTakenOnlyByTheModesThatUseIt() {
        for (Position position : positions()) {
            List<String> taking = modesTaking(position.key);
            for (String mode : MODES) {
                Table read =
                        table.withDynamicOptions(
                                Map.of(position.key, position.value, "scan.mode", mode));
                if (!taking.contains(mode)) {
                    assertRefusedByEveryPlanner(
                            read,
                            String.format(
                                    "Conflicting options for table db.t: '%s' = %s does not go"
                                            + " with 'scan.mode' = '%s'; it goes with %s",
                                    position.key, position.shown, mode, shown(taking)));
                } else if (position.key.equals("incremental-between")) {
                    read.newStreamScan(null).checkBetween(read.config().stream().between());
                } else {
                    // A batch read reads the snapshot the position selects, whatever the mode.
                    assertThat(read.newScan().plan().snapshot().id())
                            .as(position.key + " with " + mode)
                            .isEqualTo(1);
                    read.newStreamScan(null).checkStart();
                }
            }
        }
    }

    private static String shown(List<String> modes) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < modes.size(); i++) {
            s.append(i == 0 ? "" : i == modes.size() - 1 ? " or " : ", ");
            s.append('\'').append(modes.get(i)).append('\'');
        }
        return s.toString();
    }

    /** Batch, streaming, and (if the options ask for it) the bounded read of changes refuse. */
    private static void assertRefusedByEveryPlanner(Table read, String message) {
        assertRefusedByBatchAndStreaming(read, message);
        if (read.config().stream().between() != null) {
            assertThatThrownBy(
                            () ->
                                    read.newStreamScan(null)
                                            .checkBetween(read.config().stream().between()))
                    .as("between")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(message);
        }
    }

    private static void assertRefusedByBatchAndStreaming(Table read, String message) {
        Throwable batch = catchThrowable(() -> read.newScan().plan());
        assertThat(batch).as("batch").isInstanceOf(IllegalArgumentException.class);
        assertThat(batch).as("batch").hasMessage(message);
        Throwable streaming = catchThrowable(() -> read.newStreamScan(null).start());
        assertThat(streaming).as("streaming").isInstanceOf(IllegalArgumentException.class);
        assertThat(streaming).as("streaming").hasMessage(message);
    }
}
