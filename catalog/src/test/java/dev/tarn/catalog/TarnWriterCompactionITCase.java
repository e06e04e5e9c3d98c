package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who compacts while streaming writers run, through SQL: writers with {@code write-only} never
 * compact while the compaction job ({@code CALL sys.compact}) compacts beside them, and every row
 * lands once; a streaming writer of an append table merges its own small files, and a streaming
 * read that follows the table sees each row once.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TarnWriterCompactionITCase {

    /** Slots for a streaming writer and a streaming reader at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    private static final String CHECKPOINTS = "execution.checkpointing.interval";

    @TempDir Path lake;
    private LakeSql batch;

    @BeforeEach
    void open() {
        batch = LakeSql.open(lake);
    }

    /** A bounded streaming source of {@code rows} ids from 0, {@code perSecond} a second. */
    private static void ids(TableEnvironment env, long rows, long perSecond) {
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                                + " 'fields.id.end' = '%d', 'rows-per-second' = '%d')",
                        rows - 1, perSecond));
    }

    @Test
    void writeOnlyWritersLeaveCompactionToTheJobAndEveryRowLandsOnce() throws Exception {
        long keys = 200;
        long rows = 16_000;
        // Writers that compacted by themselves would at two runs.
        batch.exec(
                "CREATE TABLE db.counts (k BIGINT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('bucket' = '2', 'merge-engine' = 'aggregation',"
                        + " 'fields.n.aggregate-function' = 'sum',"
                        + " 'num-sorted-run.compaction-trigger' = '2', 'commit.retry-wait' = '1 ms')");
        TableEnvironment streaming =
                LakeSql.streaming(lake, CHECKPOINTS, "150 ms", "restart-strategy.type", "none");
        ids(streaming, rows, 2_000);
        TableResult job =
                streaming.executeSql(
                        "INSERT INTO db.counts /*+ OPTIONS('write-only' = 'true') */"
                                + " SELECT MOD(id, "
                                + keys
                                + "), CAST(1 AS BIGINT) FROM gen");

        AtomicBoolean done = new AtomicBoolean();
        List<String> calls = new ArrayList<>();
        Thread compactor =
                new Thread(
                        () -> {
                            LakeSql procedures = LakeSql.reopen(lake);
                            while (!done.get()) {
                                try {
                                    calls.addAll(
                                            procedures.query("CALL lake.sys.compact('db.counts')"));
                                    Thread.sleep(200);
                                } catch (Exception e) {
                                    calls.add("failed: " + e);
                                }
                            }
                        });
        compactor.start();
        try {
            job.await();
        } finally {
            done.set(true);
            compactor.join();
        }

        assertThat(calls).noneMatch(r -> r.startsWith("failed"));
        assertThat(batch.query("SELECT COUNT(*), SUM(n), MIN(n), MAX(n) FROM db.counts"))
                .containsExactly(
                        String.format("+I[%d, %d, %d, %d]", keys, rows, rows / keys, rows / keys));
        List<Snapshot> history = new LakeFiles(lake, "counts").snapshots();
        assertThat(history)
                .filteredOn(s -> !s.commit().user().startsWith("compact-"))
                .as("the writers' snapshots")
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.commit().kind()).isEqualTo(CommitKind.APPEND));
        assertThat(history)
                .filteredOn(s -> s.commit().user().startsWith("compact-"))
                .as("compactions of the job between the writers' commits")
                .isNotEmpty();
    }

    @Test
    void aStreamingAppendWriterMergesItsSmallFilesAndAFollowerSeesEachRowOnce() throws Exception {
        int rows = 3_000;
        batch.exec(
                "CREATE TABLE db.log (id BIGINT) WITH ('bucket' = '1',"
                        + " 'compaction.min.file-num' = '3', 'compaction.max.file-num' = '4')");
        try (Follower follower =
                new Follower(LakeSql.streaming(lake).executeSql("SELECT id FROM db.log"))) {
            follower.awaitRunning();
            TableEnvironment streaming = LakeSql.streaming(lake, CHECKPOINTS, "100 ms");
            ids(streaming, rows, 600);
            streaming.executeSql("INSERT INTO db.log SELECT id FROM gen").await();

            long[] seen = new long[rows];
            int i = 0;
            for (String row : follower.take(rows)) {
                seen[i++] = Long.parseLong(row.substring(3, row.length() - 1));
            }
            Arrays.sort(seen);
            for (int id = 0; id < rows; id++) {
                assertThat(seen[id]).as("the %dth smallest id read", id).isEqualTo(id);
            }
            follower.assertNothingFor(2_000);
        }
        LakeFiles files = new LakeFiles(lake, "log");
        List<Snapshot> history = files.snapshots();
        long appends = history.stream().filter(s -> s.commit().kind() == CommitKind.APPEND).count();
        assertThat(history)
                .filteredOn(s -> s.commit().kind() == CommitKind.COMPACT)
                .as("the writer's merges")
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.commit().user()).doesNotStartWith("compact-"));
        assertThat(files.liveFiles())
                .as("files after %d commits", appends)
                .isLessThan((int) appends);
        assertThat(batch.query("SELECT COUNT(*), COUNT(DISTINCT id) FROM db.log"))
                .containsExactly("+I[" + rows + ", " + rows + "]");
    }
}
