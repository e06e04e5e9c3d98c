package dev.tarn.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The schema-evolution issue's figure: a full scan of a table whose files were written under three
 * schema versions (a third of the rows each: before a column was added, before a column was
 * renamed, before a column was widened from INT to BIGINT), read through the fourth, against a scan
 * of the same rows written under that one schema. Both scans run at parallelism 1 into a counting
 * blackhole, interleaved round by round; each run's row count is checked.
 */
final class SchemaScanBenchmark {

    private static final String COLUMNS =
            "id BIGINT, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT, ts TIMESTAMP(3),"
                    + " flag BOOLEAN";

    /** The columns after the three changes: note added, s1 renamed to name, k widened. */
    private static final String FINAL_COLUMNS =
            "id BIGINT, k BIGINT, name STRING, s2 STRING, price DOUBLE, qty INT, ts TIMESTAMP(3),"
                    + " flag BOOLEAN, note STRING";

    private static final String SINK = "bh";
    static final String EVOLVED = "files of three schema versions";
    static final String SINGLE = "files of one schema version";

    private final long rows;
    private final Path warehouse;
    private final TableSizes sizes;

    SchemaScanBenchmark(long rows, Path warehouse, TableSizes sizes) {
        this.rows = rows;
        this.warehouse = warehouse;
        this.sizes = sizes;
    }

    private TableEnvironment env() {
        TableEnvironment env = SessionCluster.environment(false, 1);
        env.executeSql(
                "CREATE TEMPORARY TABLE gen ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-datagen', 'rows' = '"
                        + rows
                        + "')");
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + FINAL_COLUMNS
                        + ") WITH ('connector' = 'bench-blackhole')");
        SessionCluster.addCatalog(env, "tarn", warehouse);
        return env;
    }

    /**
     * Writes both tables: {@code evolved} a third of the rows under each of schemas 0, 1 and 2 and
     * then widened to schema 3; {@code single} the same rows, copied, under its schema 0.
     */
    void prepare() throws Exception {
        TableEnvironment env = env();
        String with = TableSizes.with(sizes.appendOptions());
        env.executeSql("CREATE TABLE lake.bench.evolved (" + COLUMNS + ")" + with);
        long third = rows / 3;
        env.executeSql("INSERT INTO lake.bench.evolved SELECT * FROM gen WHERE id <= " + third)
                .await();
        env.executeSql("ALTER TABLE lake.bench.evolved ADD (note STRING)");
        env.executeSql(
                        "INSERT INTO lake.bench.evolved SELECT *, s2 FROM gen WHERE id > "
                                + third
                                + " AND id <= "
                                + 2 * third)
                .await();
        env.executeSql("ALTER TABLE lake.bench.evolved RENAME s1 TO name");
        env.executeSql(
                        "INSERT INTO lake.bench.evolved SELECT *, s1 FROM gen WHERE id > "
                                + 2 * third)
                .await();
        env.executeSql("ALTER TABLE lake.bench.evolved MODIFY k BIGINT");
        env.executeSql("CREATE TABLE lake.bench.single (" + FINAL_COLUMNS + ")" + with);
        env.executeSql("INSERT INTO lake.bench.single SELECT * FROM lake.bench.evolved").await();
        // The same rows in both: the same count and sums over every column's values.
        String sums =
                "SELECT COUNT(*), SUM(id), SUM(k), SUM(CHAR_LENGTH(name)), SUM(CHAR_LENGTH(s2)),"
                        + " SUM(price), SUM(qty), COUNT(ts), COUNT(NULLIF(flag, false)),"
                        + " COUNT(note) FROM lake.bench.";
        String evolved = first(env, sums + "evolved");
        String single = first(env, sums + "single");
        if (!evolved.equals(single)) {
            throw new WrongResultException(
                    "the tables differ: evolved " + evolved + ", single " + single);
        }
        System.out.printf(
                "Files by schema: evolved %s, single %s; both hold %s%n",
                first(
                        env,
                        "SELECT LISTAGG(DISTINCT CAST(schema_id AS STRING)) FROM"
                                + " lake.bench.`evolved$files`"),
                first(
                        env,
                        "SELECT LISTAGG(DISTINCT CAST(schema_id AS STRING)) FROM"
                                + " lake.bench.`single$files`"),
                evolved);
    }

    private static String first(TableEnvironment env, String query) throws Exception {
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            return it.next().toString();
        }
    }

    void scan(String table) throws Exception {
        env().executeSql("INSERT INTO " + SINK + " SELECT * FROM lake.bench." + table).await();
    }

    void check() {
        CountingSinkFactory.check(SINK, rows);
    }

    /** Prepares the tables, warms up, measures both scans in rounds and prints their ratio. */
    static void run(long rows, int runs, Path warehouse, TableSizes sizes) throws Exception {
        System.out.printf(
                "Schema-evolution scan: %,d rows of 8 or 9 columns, parallelism 1, %s, %d runs%n",
                rows, sizes.describe(), runs);
        SchemaScanBenchmark bench = new SchemaScanBenchmark(rows, warehouse, sizes);
        bench.prepare();
        Section section = new Section("Full scan", 1, rows, null);
        List<Pipeline> pipelines =
                List.of(
                        new Pipeline(EVOLVED, section, () -> bench.scan("evolved"), bench::check),
                        new Pipeline(SINGLE, section, () -> bench.scan("single"), bench::check));
        Rounds.warmUp(pipelines);
        Map<Pipeline, List<Measurement>> results = Rounds.measure(pipelines, runs);
        Rounds.print(List.of(section), results, System.out);
        double evolved = Measurement.median(results.get(pipelines.get(0))).seconds();
        double single = Measurement.median(results.get(pipelines.get(1))).seconds();
        System.out.printf(
                "Three schema versions over one: %.2f s / %.2f s = %.3f%n",
                evolved, single, evolved / single);
    }
}
