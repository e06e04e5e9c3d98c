package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.io.FlinkFileIO;
import dev.tarn.format.read.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.types.logical.BigIntType;

/**
 * The append-table pipelines of the foundation issue: 8 columns (BIGINT, INT, two STRINGs, DOUBLE,
 * INT, TIMESTAMP, BOOLEAN) from datagen into blackhole, Tarn and Paimon, then a full scan and a
 * selective filter of what was written.
 */
final class AppendBenchmark {

    private static final String COLUMNS =
            "id BIGINT, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT, ts TIMESTAMP(3),"
                    + " flag BOOLEAN";
    private static final String FILTER = " WHERE id BETWEEN 1000 AND 1999";

    private final long rows;
    private final Path warehouse;

    AppendBenchmark(long rows, Path warehouse) {
        this.rows = rows;
        this.warehouse = warehouse;
    }

    /**
     * The source: the FLIP-27 generator ({@link BenchGenFactory}) by default; Flink's legacy {@code
     * datagen} connector with {@code -Dbench.legacyDatagen=true}.
     */
    private String genDdl() {
        if (!Boolean.getBoolean("bench.legacyDatagen")) {
            return "CREATE TEMPORARY TABLE gen ("
                    + COLUMNS
                    + ") WITH ('connector' = 'bench-datagen', 'rows' = '"
                    + rows
                    + "')";
        }
        return "CREATE TEMPORARY TABLE gen ("
                + COLUMNS
                + ") WITH ('connector' = 'datagen', 'number-of-rows' = '"
                + rows
                + "', 'rows-per-second' = '1000000000', 'fields.id.kind' = 'sequence',"
                + " 'fields.id.start' = '1', 'fields.id.end' = '"
                + rows
                + "', 'fields.k.min' = '0', 'fields.k.max' = '1000',"
                + " 'fields.s1.length' = '16', 'fields.s2.length' = '16')";
    }

    private TableEnvironment env() {
        TableEnvironment env = Benchmarks.batchEnv();
        env.executeSql(genDdl());
        env.executeSql(
                "CREATE TEMPORARY TABLE bh (" + COLUMNS + ") WITH ('connector' = 'blackhole')");
        SessionCluster.addCatalog(env, "tarn", warehouse);
        return env;
    }

    private TableEnvironment paimonEnv() {
        TableEnvironment env = env();
        SessionCluster.addCatalog(env, "paimon", warehouse);
        return env;
    }

    void blackhole() throws Exception {
        TableEnvironment env = env();
        env.executeSql("INSERT INTO bh SELECT * FROM gen").await();
    }

    void writeTarn() throws Exception {
        TableEnvironment env = env();
        env.executeSql("DROP TABLE IF EXISTS lake.bench.events");
        env.executeSql(
                "CREATE TABLE lake.bench.events ("
                        + COLUMNS
                        + ")"
                        + System.getProperty("bench.tarnTableOptions", ""));
        env.executeSql("INSERT INTO lake.bench.events SELECT * FROM gen").await();
    }

    void scanTarn() throws Exception {
        env().executeSql("INSERT INTO bh SELECT * FROM lake.bench.events").await();
    }

    /** A scan of an empty table: the fixed cost of planning, deploying and finishing a job. */
    void scanEmptyTarn() throws Exception {
        TableEnvironment env = env();
        env.executeSql("CREATE TABLE IF NOT EXISTS lake.bench.no_rows (" + COLUMNS + ")");
        env.executeSql("INSERT INTO bh SELECT * FROM lake.bench.no_rows").await();
    }

    void filterTarn() throws Exception {
        env().executeSql("INSERT INTO bh SELECT * FROM lake.bench.events" + FILTER).await();
    }

    void writePaimon() throws Exception {
        TableEnvironment env = paimonEnv();
        env.executeSql("DROP TABLE IF EXISTS paimon.bench.events");
        env.executeSql("CREATE TABLE paimon.bench.events (" + COLUMNS + ")");
        env.executeSql("INSERT INTO paimon.bench.events SELECT * FROM gen").await();
    }

    void scanPaimon() throws Exception {
        paimonEnv().executeSql("INSERT INTO bh SELECT * FROM paimon.bench.events").await();
    }

    void filterPaimon() throws Exception {
        paimonEnv().executeSql("INSERT INTO bh SELECT * FROM paimon.bench.events" + FILTER).await();
    }

    private Table table() {
        return Table.load(
                new FlinkFileIO(),
                new org.apache.flink.core.fs.Path(
                        warehouse.resolve("tarn").resolve("bench.db").resolve("events").toUri()),
                "bench.events");
    }

    /** Data-file bytes the selective filter reads, through the same seam the source uses. */
    long filterBytesRead() throws IOException {
        Predicate filter =
                new Predicate.And(
                        List.of(
                                new Predicate.Leaf(
                                        Predicate.Op.GT_EQ,
                                        0,
                                        "id",
                                        new BigIntType(),
                                        List.of(1000L)),
                                new Predicate.Leaf(
                                        Predicate.Op.LT_EQ,
                                        0,
                                        "id",
                                        new BigIntType(),
                                        List.of(1999L))));
        Table table = table();
        long bytes = 0;
        TableRead read = table.newRead().withFilter(filter);
        for (Split split : table.newScan().withFilter(filter).plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                while (reader.next() != null) {
                    // Drain: count what reading the split costs.
                }
                bytes += reader.bytesRead();
            }
        }
        return bytes;
    }

    long tableBytes() {
        return table().newScan().plan().splits().stream()
                .flatMap(s -> s.files().stream())
                .mapToLong(f -> f.fileSize())
                .sum();
    }
}
