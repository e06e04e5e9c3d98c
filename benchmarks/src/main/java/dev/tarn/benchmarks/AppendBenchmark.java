package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;

/**
 * The append-table pipelines of the foundation issue: 8 columns (BIGINT, INT, two STRINGs, DOUBLE,
 * INT, TIMESTAMP, BOOLEAN) from datagen into blackhole, Tarn and Paimon, then a full scan and a
 * selective filter of what was written (by row id, which statistics prune, and by a value no
 * statistics prune); each at a given parallelism, and each with the check of its result. {@code
 * -Dbench.tarnTableOptions="'key' = 'value', ..."} adds options to the Tarn table.
 */
final class AppendBenchmark {

    static final String COLUMNS =
            "id BIGINT, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT, ts TIMESTAMP(3),"
                    + " flag BOOLEAN";
    private static final String FILTER = " WHERE id BETWEEN 1000 AND 1999";

    /**
     * On {@code k}, uniform over 0..999 in every page: no statistics prune it, so each system reads
     * every row and drops 99% of them.
     */
    static final String VALUE_FILTER = " WHERE k < 10";

    /** The sink of every pipeline but the writes: a blackhole that counts. */
    private static final String SINK = "bh";

    private final long rows;
    private final Path warehouse;
    private final TableSizes sizes;
    private TableContents generated;
    private long valueFilterRows = -1;

    AppendBenchmark(long rows, Path warehouse, TableSizes sizes) {
        this.rows = rows;
        this.warehouse = warehouse;
        this.sizes = sizes;
    }

    long rows() {
        return rows;
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

    private TableEnvironment env(int parallelism) {
        TableEnvironment env = SessionCluster.environment(false, parallelism);
        env.executeSql(genDdl());
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-blackhole')");
        SessionCluster.addCatalog(env, "tarn", warehouse);
        return env;
    }

    private TableEnvironment paimonEnv(int parallelism) {
        TableEnvironment env = env(parallelism);
        SessionCluster.addCatalog(env, "paimon", warehouse);
        return env;
    }

    void blackhole(int parallelism) throws Exception {
        env(parallelism).executeSql("INSERT INTO bh SELECT * FROM gen").await();
    }

    void writeTarn(int parallelism) throws Exception {
        List<String> options = new ArrayList<>(sizes.appendOptions());
        String extra = System.getProperty("bench.tarnTableOptions", "");
        if (!extra.isBlank()) {
            options.add(extra);
        }
        write(env(parallelism), "lake", options);
    }

    void writePaimon(int parallelism) throws Exception {
        write(paimonEnv(parallelism), "paimon", sizes.appendOptions());
    }

    private static void write(TableEnvironment env, String catalog, List<String> options)
            throws Exception {
        env.executeSql("DROP TABLE IF EXISTS " + catalog + ".bench.events");
        env.executeSql(
                "CREATE TABLE "
                        + catalog
                        + ".bench.events ("
                        + COLUMNS
                        + ")"
                        + TableSizes.with(options));
        env.executeSql("INSERT INTO " + catalog + ".bench.events SELECT * FROM gen").await();
    }

    /**
     * The same rows from memory into the blackhole ({@link ReplaySourceFactory}): the floor of a
     * scan in this job, with nothing read or decoded.
     */
    void replay(int parallelism) throws Exception {
        TableEnvironment env = env(parallelism);
        env.executeSql(
                "CREATE TEMPORARY TABLE replay ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-replay', 'rows' = '"
                        + rows
                        + "')");
        env.executeSql("INSERT INTO bh SELECT * FROM replay").await();
    }

    void scanTarn(int parallelism) throws Exception {
        env(parallelism).executeSql("INSERT INTO bh SELECT * FROM lake.bench.events").await();
    }

    /** A scan of an empty table: the fixed cost of planning, deploying and finishing a job. */
    void scanEmptyTarn(int parallelism) throws Exception {
        TableEnvironment env = env(parallelism);
        env.executeSql("CREATE TABLE IF NOT EXISTS lake.bench.no_rows (" + COLUMNS + ")");
        env.executeSql("INSERT INTO bh SELECT * FROM lake.bench.no_rows").await();
    }

    void filterTarn(int parallelism) throws Exception {
        env(parallelism)
                .executeSql("INSERT INTO bh SELECT * FROM lake.bench.events" + FILTER)
                .await();
    }

    /** The filter {@link #VALUE_FILTER} on the table of {@code catalog} into the blackhole. */
    void valueFilter(String catalog, int parallelism) throws Exception {
        (catalog.equals("paimon") ? paimonEnv(parallelism) : env(parallelism))
                .executeSql(
                        "INSERT INTO bh SELECT * FROM " + catalog + ".bench.events" + VALUE_FILTER)
                .await();
    }

    /** Rows {@link #VALUE_FILTER} returns, counted from the generator once. */
    long valueFilterRows() {
        if (valueFilterRows < 0) {
            BenchGenFactory.Rows gen = new BenchGenFactory.Rows(rows, 0);
            long count = 0;
            for (long i = 0; i < rows; i++) {
                RowData row = gen.row(i);
                if (!row.isNullAt(1) && row.getInt(1) < 10) {
                    count++;
                }
            }
            valueFilterRows = count;
        }
        return valueFilterRows;
    }

    void scanPaimon(int parallelism) throws Exception {
        paimonEnv(parallelism)
                .executeSql("INSERT INTO bh SELECT * FROM paimon.bench.events")
                .await();
    }

    void filterPaimon(int parallelism) throws Exception {
        paimonEnv(parallelism)
                .executeSql("INSERT INTO bh SELECT * FROM paimon.bench.events" + FILTER)
                .await();
    }

    /** Fails unless the last pipeline's sink received {@code expected} rows. */
    static void checkReceived(long expected) {
        CountingSinkFactory.check(SINK, expected);
    }

    /** Rows the selective filter returns: ids 1000 to 1999 of ids 1 to rows. */
    long filterRows() {
        return Math.max(0, Math.min(rows, 1999) - 999);
    }

    /**
     * Fails unless the table of {@code catalog} holds every generated row, once. The legacy
     * generator's values are random: of its rows, only the count is checked.
     */
    void checkTable(String catalog) throws Exception {
        TableEnvironment env = catalog.equals("paimon") ? paimonEnv(1) : env(1);
        String table = catalog + ".bench.events";
        if (Boolean.getBoolean("bench.legacyDatagen")) {
            long actual = TableContents.query(env, table).rows();
            if (actual != rows) {
                throw new WrongResultException(
                        String.format("%s holds %,d rows, expected %,d", table, actual, rows));
            }
            return;
        }
        if (generated == null) {
            generated = TableContents.generated(new BenchGenFactory.Rows(rows, 0), 0, rows);
        }
        generated.check(env, table);
    }

    private Table table() {
        return Table.load(
                FileIO.flinkFileSystems(),
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
