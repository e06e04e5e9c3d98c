package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.io.FlinkFileIO;
import dev.tarn.format.write.TableWrite;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
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

    /** Rows between commits of the write-amplification run: 2 s of input at 400,000 rows/s. */
    private static final long ROWS_PER_CHECKPOINT = 800_000;

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
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '"
                        + warehouse.resolve("tarn").toUri()
                        + "')");
        env.executeSql("CREATE DATABASE IF NOT EXISTS lake.bench");
        return env;
    }

    private TableEnvironment paimonEnv(boolean streaming) {
        TableEnvironment env = env(streaming);
        env.executeSql(
                "CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '"
                        + warehouse.resolve("paimon").toUri()
                        + "')");
        env.executeSql("CREATE DATABASE IF NOT EXISTS paimon.bench");
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
        env(false).executeSql("INSERT INTO bh SELECT * FROM lake.bench.users").await();
    }

    void scanPaimon() throws Exception {
        paimonEnv(false).executeSql("INSERT INTO bh SELECT * FROM paimon.bench.users").await();
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
     * Writes the same rows through the format's write seam, with a 256 MB buffer and a commit every
     * {@link #ROWS_PER_CHECKPOINT} rows, and reports the bytes written by flushes and by
     * compactions, and the peak live heap while writing.
     */
    String writeAmplificationAndPeakHeap() throws Exception {
        TableEnvironment env = env(false);
        env.executeSql(
                "CREATE TABLE lake.bench.amplification ("
                        + COLUMNS
                        + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4',"
                        + " 'write-buffer-size' = '256mb')");
        Table table =
                Table.load(
                        new FlinkFileIO(),
                        new org.apache.flink.core.fs.Path(
                                warehouse
                                        .resolve("tarn")
                                        .resolve("bench.db")
                                        .resolve("amplification")
                                        .toUri()),
                        "bench.amplification");
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(keys);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long baseline = memory.getHeapMemoryUsage().getUsed();
        long peakLive = 0;
        long sampleEvery = Math.max(1, rows / 20);
        TableWrite.WrittenBytes written;
        long commits = 0;
        try (TableWrite write = table.newWrite()) {
            for (long i = 0; i < rows; i++) {
                write.write(generator.map(i));
                if (i % ROWS_PER_CHECKPOINT == ROWS_PER_CHECKPOINT - 1) {
                    table.newCommit("bench").commit(++commits, write.prepareCommit(false));
                }
                if (i % sampleEvery == sampleEvery - 1) {
                    // Live heap: what a full collection cannot free, i.e. what the writer holds.
                    System.gc();
                    peakLive = Math.max(peakLive, memory.getHeapMemoryUsage().getUsed());
                }
            }
            table.newCommit("bench").commit(++commits, write.prepareCommit(true));
            written = write.writtenBytes();
        }
        double amplification =
                (written.flushed() + written.compacted()) / (double) written.flushed();
        return String.format(
                "Write amplification (format API, 256 MB buffer, a commit every %,d rows as at"
                        + " 2 s checkpoints): flushed %,d bytes, compacted %,d bytes: %.2f bytes"
                        + " written per byte flushed.%n"
                        + "Peak live heap of the writer (after full collections, %d samples,"
                        + " over the %,d MB before writing): %,d MB.",
                ROWS_PER_CHECKPOINT,
                written.flushed(),
                written.compacted(),
                amplification,
                rows / sampleEvery,
                baseline >> 20,
                (peakLive - baseline) >> 20);
    }
}
