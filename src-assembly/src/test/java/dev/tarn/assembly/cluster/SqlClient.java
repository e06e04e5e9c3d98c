package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Flink's SQL client ({@code org.apache.flink.table.client.SqlClient}, embedded mode) in its own
 * JVM, running a script with {@code -f} against the cluster's REST endpoint (the cluster's
 * configuration says {@code execution.target: remote}), results printed as tables.
 */
final class SqlClient {

    /** Printed by the client for a statement that failed. */
    static final String ERROR_MARK = "[ERROR]";

    private final LocalFlinkCluster cluster;
    private final Path scriptDir;
    private int runs;

    SqlClient(LocalFlinkCluster cluster, Path scriptDir) {
        this.cluster = cluster;
        this.scriptDir = scriptDir;
    }

    /**
     * Runs {@code statements} (each without its {@code ;}) to the end and returns the client's
     * output; fails with that output when the client exits non-zero or reports an error.
     */
    String run(String name, List<String> statements, Duration timeout)
            throws IOException, InterruptedException {
        JavaProcess client = start(name, statements);
        int exit = client.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        String output = client.output();
        if (exit != 0 || output.contains(ERROR_MARK)) {
            throw new IllegalStateException(
                    "SQL client run "
                            + name
                            + " failed (exit code "
                            + exit
                            + "):\n"
                            + output
                            + "\n"
                            + cluster.logTails(30));
        }
        return output;
    }

    /** Starts a run that does not end by itself (a streaming query); the caller kills it. */
    JavaProcess start(String name, List<String> statements) throws IOException {
        String processName = String.format("sql-client-%02d-%s", ++runs, name);
        List<String> script = new ArrayList<>();
        script.add("SET 'sql-client.execution.result-mode' = 'tableau'");
        script.add("SET 'sql-client.display.max-column-width' = '200'");
        script.addAll(statements);
        Path file = Files.createDirectories(scriptDir).resolve(processName + ".sql");
        Files.writeString(file, String.join(";\n", script) + ";\n");
        // A short-lived client: the quick compiler alone halves its CPU time on two cores.
        List<String> jvm = new ArrayList<>(List.of("-Xmx768m", "-XX:TieredStopAtLevel=1"));
        jvm.addAll(JvmOptions.FLINK_DEFAULT_OPTS);
        jvm.addAll(cluster.logArgs(processName));
        return JavaProcess.start(
                processName,
                jvm,
                cluster.runtime().sqlClientClassPath(),
                "org.apache.flink.table.client.SqlClient",
                List.of("-f", file.toString()),
                cluster.environment(),
                cluster.logDir().resolve(processName + ".out"));
    }
}
