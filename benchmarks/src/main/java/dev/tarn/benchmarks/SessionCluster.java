package dev.tarn.benchmarks;

import java.net.URI;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * A Flink cluster that runs for the whole benchmark, in this JVM, reached over REST like a session
 * cluster the SQL client submits to: every pipeline pays for submitting and running its job, not
 * for starting a cluster (which a user of a running cluster never waits for).
 */
final class SessionCluster {

    private static URI rest;

    private SessionCluster() {}

    static synchronized void start() throws Exception {
        if (rest != null) {
            return;
        }
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(4)
                                .build());
        cluster.start();
        rest = cluster.getRestAddress().get();
    }

    /** A table environment whose jobs run on the session cluster, at parallelism 1. */
    static TableEnvironment environment(boolean streaming) {
        if (rest == null) {
            throw new IllegalStateException("The session cluster is not started");
        }
        TableEnvironment env =
                TableEnvironment.create(
                        streaming
                                ? EnvironmentSettings.inStreamingMode()
                                : EnvironmentSettings.inBatchMode());
        env.getConfig().set("execution.target", "remote");
        env.getConfig().set("rest.address", rest.getHost());
        env.getConfig().set("rest.port", String.valueOf(rest.getPort()));
        env.getConfig().set("parallelism.default", "1");
        return env;
    }
}
