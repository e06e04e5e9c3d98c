package dev.tarn.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The primary-key pipelines: upserts of 8 columns over a quarter as many keys into a 4-bucket table
 * (batch, and streaming with a checkpoint every 2 seconds), into Tarn and Paimon; then a full
 * merged scan and a point lookup by key; and Tarn's write amplification and peak heap.
 */
final class PrimaryKeyBenchmark {

    private static final String COLUMNS =
            "id BIGINT NOT NULL, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT,"
                    + " ts TIMESTAMP(3), flag BOOLEAN";
    private static final String TABLE =
            "users (" + COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')";
    private static final long LOOKUP_KEY = 777_777;

    private final long rows;
    private final long keys;
    private final Path warehouse;

    PrimaryKeyBenchmark(long rows, Path warehouse) {
        this.rows = rows;
        this.keys = Math.max(1, rows / 4);
        this.warehouse = warehouse;
    }

    long keys() {
        return keys;
    }

    private TableEnvironment env(boolean streaming) {
        TableEnvironment env = SessionCluster.environment(streaming);
        if (streaming) {
            env.getConfig().set("execution.checkpointing.interval", "2s");
        }
        env.executeSql(
                "CREATE TEMPORARY TABLE gen ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-datagen', 'rows' = '"
                        + rows
                        + "', 'keys' = '"
                        + keys
                        + "')");
        env.executeSql(
                "CREATE TEMPORARY TABLE bh (" + COLUMNS + ") WITH ('connector' = 'blackhole')");
        // Scans go to a blackhole without NOT NULL, so that their pipelines measure the reader,
        // not a NOT NULL check that Flink adds before a sink declaring one.
        env.executeSql(
                "CREATE TEMPORARY TABLE scan_bh ("
                        + COLUMNS.replace(" NOT NULL", "")
                        + ") WITH ('connector' = 'blackhole')");
        SessionCluster.addCatalog(env, "tarn", warehouse);
        return env;
    }

    private TableEnvironment paimonEnv(boolean streaming) {
        TableEnvironment env = env(streaming);
        SessionCluster.addCatalog(env, "paimon", warehouse);
        return env;
    }

    void blackhole() throws Exception {
        env(false).executeSql("INSERT INTO bh SELECT * FROM gen").await();
    }

    void writeTarn(boolean streaming) throws Exception {
        TableEnvironment env = env(streaming);
        env.executeSql("DROP TABLE IF EXISTS lake.bench.users");
        env.executeSql("CREATE TABLE lake.bench." + TABLE);
        env.executeSql("INSERT INTO lake.bench.users SELECT * FROM gen").await();
    }

    void writePaimon(boolean streaming) throws Exception {
        TableEnvironment env = paimonEnv(streaming);
        env.executeSql("DROP TABLE IF EXISTS paimon.bench.users");
        env.executeSql("CREATE TABLE paimon.bench." + TABLE);
        env.executeSql("INSERT INTO paimon.bench.users SELECT * FROM gen").await();
    }

    void scanTarn() throws Exception {
        env(false).executeSql("INSERT INTO scan_bh SELECT * FROM lake.bench.users").await();
    }

    void scanPaimon() throws Exception {
        paimonEnv(false).executeSql("INSERT INTO scan_bh SELECT * FROM paimon.bench.users").await();
    }

    /** A scan of an empty primary-key table: the fixed cost of planning and running a job. */
    void scanEmptyTarn() throws Exception {
        TableEnvironment env = env(false);
        env.executeSql(
                "CREATE TABLE IF NOT EXISTS lake.bench.no_rows ("
                        + COLUMNS
                        + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')");
        env.executeSql("INSERT INTO scan_bh SELECT * FROM lake.bench.no_rows").await();
    }

    void lookupTarn() throws Exception {
        lookup(env(false), "lake");
    }

    void lookupPaimon() throws Exception {
        lookup(paimonEnv(false), "paimon");
    }

    private void lookup(TableEnvironment env, String catalog) throws Exception {
        List<Row> found = new ArrayList<>();
        try (CloseableIterator<Row> it =
                env.executeSql(
                                "SELECT * FROM "
                                        + catalog
                                        + ".bench.users WHERE id = "
                                        + Math.min(LOOKUP_KEY, keys))
                        .collect()) {
            it.forEachRemaining(found::add);
        }
        if (found.size() != 1) {
            throw new IllegalStateException(
                    "Point lookup in " + catalog + " found " + found.size() + " rows, not 1");
        }
    }

    /** Checks the table holds one row per key, the last written. */
    void checkTarnCount() throws Exception {
        try (CloseableIterator<Row> it =
                env(false).executeSql("SELECT COUNT(*) FROM lake.bench.users").collect()) {
            long count = (Long) it.next().getField(0);
            if (count != keys) {
                throw new IllegalStateException(
                        "Tarn table holds " + count + " rows, expected one per key: " + keys);
            }
        }
    }

    /**
     * Write amplification and peak heap of the LSM writer alone, measured by {@link LsmWriteProbe}
     * in a JVM of its own with a 1 GB heap, so neither Flink nor the other pipelines count.
     */
    String writeAmplificationAndPeakHeap() throws Exception {
        return probe("checkpoints") + System.lineSeparator() + probe("batch");
    }

    private String probe(String mode) throws Exception {
        Process probe =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx1g",
                                "-cp",
                                System.getProperty("java.class.path"),
                                LsmWriteProbe.class.getName(),
                                String.valueOf(rows),
                                String.valueOf(keys),
                                warehouse.resolve("probe-" + mode).toUri().toString(),
                                mode)
                        .redirectErrorStream(true)
                        .start();
        String output = new String(probe.getInputStream().readAllBytes());
        if (probe.waitFor() != 0) {
            throw new IllegalStateException("The LSM write probe failed:\n" + output);
        }
        return output.lines()
                .filter(line -> line.startsWith(LsmWriteProbe.PREFIX))
                .map(line -> line.substring(LsmWriteProbe.PREFIX.length()))
                .reduce((a, b) -> a + System.lineSeparator() + b)
                .orElse(output);
    }
}
