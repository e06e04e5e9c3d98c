package dev.tarn.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Local files of Tarn's tasks (a writer's spilled buffers, a lookup join's copy of a table) go to
 * the TaskManager's temporary directories, Flink's {@code io.tmp.dirs}, spread over them by
 * subtask, and are gone once the job is.
 */
class TarnTaskManagerDirectoriesITCase {

    /** The TaskManager's two temporary directories, under one JUnit deletes after the class. */
    @TempDir static Path root;

    private static Path first;
    private static Path second;

    /**
     * A cluster of its own: Flink's test extension replaces {@code io.tmp.dirs} with a directory of
     * its own choosing.
     */
    private static MiniCluster cluster;

    @TempDir Path lake;

    @BeforeAll
    static void startCluster() throws Exception {
        first = Files.createDirectories(root.resolve("first"));
        second = Files.createDirectories(root.resolve("second"));
        cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(
                                        new Configuration()
                                                .set(CoreOptions.TMP_DIRS, first + "," + second))
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(2)
                                .build());
        cluster.start();
        TestStreamEnvironment.setAsContext(cluster, 2);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        TestStreamEnvironment.unsetAsContext();
        cluster.close();
    }

    @Test
    void aWritersSpilledBuffersGoToItsTaskManagersDirectory() throws Exception {
        LakeSql.open(lake)
                .exec(
                        "CREATE TABLE db.t (id BIGINT, payload STRING, PRIMARY KEY (id) NOT"
                                + " ENFORCED) WITH ('bucket' = '2', 'write-buffer-size' = '1mb')");
        TableEnvironment env = streaming();
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT, payload STRING) WITH ('connector' ="
                        + " 'datagen', 'rows-per-second' = '20000', 'fields.payload.length' ="
                        + " '100')");
        // No checkpoint comes: the buffers fill and spill until the job is cancelled.
        TableResult job = env.executeSql("INSERT INTO db.t SELECT * FROM gen");
        // Subtask 0 spills under the first directory, subtask 1 under the second.
        assertOneUnderEachWhileRunning(
                job,
                "tarn-spill-",
                () -> !spillFiles(first).isEmpty() && !spillFiles(second).isEmpty());
    }

    @ParameterizedTest(name = "async lookup: {0}")
    @ValueSource(booleans = {false, true})
    void aLookupJoinsCopiesLiveInItsTaskManagersDirectories(boolean async) throws Exception {
        LakeSql batch = LakeSql.open(lake);
        batch.exec(
                "CREATE TABLE db.dim (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '4')");
        batch.exec("INSERT INTO db.dim VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        TableEnvironment env = streaming();
        env.executeSql(
                "CREATE TEMPORARY TABLE facts (k BIGINT, pt AS PROCTIME()) WITH ('connector' ="
                        + " 'datagen', 'rows-per-second' = '100', 'fields.k.min' = '1',"
                        + " 'fields.k.max' = '4')");
        env.executeSql(
                "CREATE TEMPORARY TABLE joined (k BIGINT, name STRING) WITH ('connector' ="
                        + " 'blackhole')");
        // Shuffled by bucket, each subtask holds its own copy of its buckets.
        TableResult job =
                env.executeSql(
                        "INSERT INTO joined SELECT /*+ LOOKUP('table' = 'd', 'shuffle' = 'true') */"
                                + " f.k, d.name FROM facts AS f JOIN db.dim /*+"
                                + " OPTIONS('lookup.async' = '"
                                + async
                                + "') */ FOR SYSTEM_TIME AS OF f.pt AS d ON f.k = d.id");
        assertOneUnderEachWhileRunning(job, "tarn-lookup-", () -> true);
    }

    /**
     * Waits until each of the two directories holds one entry named {@code prefix}... and {@code
     * also} holds, cancels {@code job}, and waits until the entries are gone.
     */
    private static void assertOneUnderEachWhileRunning(
            TableResult job, String prefix, Follower.Check also) throws Exception {
        try {
            Follower.awaitTrue(
                    () ->
                            named(first, prefix).size() == 1
                                    && named(second, prefix).size() == 1
                                    && also.holds());
        } finally {
            Follower.cancelAndAwait(job);
        }
        Follower.awaitTrue(() -> named(first, prefix).isEmpty() && named(second, prefix).isEmpty());
    }

    /** A streaming environment over the lake whose jobs take no checkpoint while the test runs. */
    private TableEnvironment streaming() {
        TableEnvironment env = LakeSql.streaming(lake, "execution.checkpointing.interval", "1h");
        env.executeSql("USE db");
        return env;
    }

    /** The entries of {@code dir} whose names start with {@code prefix}. */
    private static List<Path> named(Path dir, String prefix) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
        }
    }

    private static List<Path> spillFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".spill")).toList();
        }
    }
}
