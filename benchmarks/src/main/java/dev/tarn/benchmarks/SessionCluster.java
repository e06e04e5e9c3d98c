package dev.tarn.benchmarks;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * A Flink cluster that runs for the whole benchmark, in this JVM, like a session cluster the SQL
 * client submits to: every pipeline pays for planning, submitting and running its job, not for
 * starting a cluster (which a user of a running cluster never waits for). Jobs are submitted in
 * process, so their end is seen at once rather than at the client's next poll of the job status.
 */
final class SessionCluster {

    private static boolean started;

    private SessionCluster() {}

    /**
     * Starts the cluster, with enough slots for jobs at {@code maxParallelism}: a job takes as many
     * slots as its parallelism (its operators share them), and a few are kept spare.
     */
    static synchronized void start(int maxParallelism) throws Exception {
        if (started) {
            return;
        }
        int slots = Math.max(4, maxParallelism);
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        // Any free port: jobs are submitted in process, and another cluster on the machine (a test,
        // a second benchmark) may hold Flink's default one.
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        // Closed at exit, which deletes its working directories and the RPC system's jar it
        // unpacked into the temporary directory.
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        cluster.close();
                                    } catch (Exception e) {
                                        System.err.println("Closing the cluster failed: " + e);
                                    }
                                },
                                "session-cluster-close"));
        TestStreamEnvironment.setAsContext(cluster, 1);
        started = true;
    }

    /**
     * Registers a catalog over the benchmark's warehouse in {@code env}, with a database {@code
     * bench}: {@code lake} for type {@code tarn}, {@code paimon} for type {@code paimon}.
     */
    static void addCatalog(TableEnvironment env, String type, java.nio.file.Path warehouse) {
        String name = type.equals("tarn") ? "lake" : type;
        env.executeSql(
                String.format(
                        "CREATE CATALOG %s WITH ('type' = '%s', 'warehouse' = '%s')",
                        name, type, warehouse.resolve(type).toUri()));
        env.executeSql("CREATE DATABASE IF NOT EXISTS " + name + ".bench");
    }

    /**
     * A table environment whose jobs run on the session cluster, every operator at {@code
     * parallelism}: in batch mode too, where Flink would otherwise choose the parallelism of each
     * operator after a shuffle from the data volume (up to the default).
     */
    static TableEnvironment environment(boolean streaming, int parallelism) {
        if (!started) {
            throw new IllegalStateException("The session cluster is not started");
        }
        TableEnvironment env =
                TableEnvironment.create(
                        streaming
                                ? EnvironmentSettings.inStreamingMode()
                                : EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", String.valueOf(parallelism));
        env.getConfig().set("execution.batch.adaptive.auto-parallelism.enabled", "false");
        return env;
    }
}
