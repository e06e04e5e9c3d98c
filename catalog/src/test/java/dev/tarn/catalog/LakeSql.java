package dev.tarn.catalog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * SQL in batch mode against a Tarn catalog {@code lake} with a database {@code db}, for the
 * catalog's ITCases: the cluster they share and the statements they run.
 */
final class LakeSql {

    private final TableEnvironment env;

    private LakeSql(TableEnvironment env) {
        this.env = env;
    }

    /** One task manager with two slots: jobs run at parallelism 2. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }

    /** As {@link #miniCluster()}, reporting every metric of its jobs to {@code reporter}. */
    static MiniClusterExtension miniCluster(InMemoryReporter reporter) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(reporter.addToConfiguration(new Configuration()))
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }

    /**
     * A batch environment in UTC using catalog {@code lake} at {@code warehouse}, with {@code db}.
     */
    static LakeSql open(Path warehouse) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        env.getConfig().set("table.local-time-zone", "UTC");
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG lake");
        env.executeSql("CREATE DATABASE db");
        return new LakeSql(env);
    }

    /** A batch environment like {@link #open}'s over a warehouse that has {@code db} already. */
    static LakeSql reopen(Path warehouse) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        env.getConfig().set("table.local-time-zone", "UTC");
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG lake");
        return new LakeSql(env);
    }

    /**
     * A streaming environment in UTC using catalog {@code lake} at {@code warehouse}, its jobs at
     * parallelism 2, with the further settings {@code config} (key, value, key, value, ...).
     */
    static TableEnvironment streaming(Path warehouse, String... config) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "2");
        env.getConfig().set("table.local-time-zone", "UTC");
        for (int i = 0; i < config.length; i += 2) {
            env.getConfig().set(config[i], config[i + 1]);
        }
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG lake");
        return env;
    }

    /**
     * Commits the rows {@code (id, 'n' || id)} for the ids {@code from} to {@code to} into {@code
     * table} (of columns {@code id INT, name STRING}) as one snapshot.
     */
    void insertIds(String table, int from, int to) throws Exception {
        String source = "ids_" + from + "_" + to;
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE IF NOT EXISTS %s (id INT) WITH ("
                                + " 'connector' = 'datagen', 'fields.id.kind' = 'sequence',"
                                + " 'fields.id.start' = '%d', 'fields.id.end' = '%d',"
                                + " 'number-of-rows' = '%d')",
                        source, from, to, to - from + 1));
        exec(
                String.format(
                        "INSERT INTO %s SELECT id, 'n' || CAST(id AS STRING) FROM %s",
                        table, source));
    }

    /** The rows of a query as Flink prints them ({@code +I[1, a]}), in arrival order. */
    List<String> query(String sql) throws Exception {
        return query(sql, new ArrayList<>());
    }

    /** As {@link #query(String)}, adding the id of the query's job to {@code jobs}. */
    List<String> query(String sql, List<JobID> jobs) throws Exception {
        List<String> rows = new ArrayList<>();
        TableResult result = env.executeSql(sql);
        result.getJobClient().ifPresent(c -> jobs.add(c.getJobID()));
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    /** The catalog {@code lake} this environment uses. */
    Catalog catalog() {
        return env.getCatalog("lake").orElseThrow();
    }

    /** Runs a statement to its end. */
    void exec(String sql) throws Exception {
        env.executeSql(sql).await();
    }

    /**
     * Sets {@code key} to {@code value} for the statements that follow (e.g. their parallelism).
     */
    void set(String key, String value) {
        env.getConfig().set(key, value);
    }

    /** Registers {@code function} under {@code name} for the statements that follow. */
    void function(String name, Class<? extends UserDefinedFunction> function) {
        env.createTemporarySystemFunction(name, function);
    }
}
