package dev.tarn.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The primary-key pipelines: upserts of 8 columns over a quarter as many keys into a 4-bucket table
 * (batch, and streaming with a checkpoint every 2 seconds), into Tarn and Paimon; then a full
 * merged scan and a point lookup by key; and Tarn's write amplification and peak heap. Each at a
 * given parallelism, and each with the check of its result: whatever the parallelism, the upserts
 * leave the last of the generator's rows, one per key. The deletion-vector pipelines ({@link
 * DeletionVectorPipelines}) write, scan and check tables of their own names and options through it.
 */
final class PrimaryKeyBenchmark {

    /** The generator's columns ({@link BenchGenFactory.Rows}). */
    static final String COLUMNS =
            "id BIGINT NOT NULL, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT,"
                    + " ts TIMESTAMP(3), flag BOOLEAN";

    private static final long LOOKUP_KEY = 777_777;

    /** The sink of the scans. */
    private static final String SCAN_SINK = "scan_bh";

    /** The table of the primary-key pipelines. */
    private static final String USERS = "users";

    private final long rows;
    private final long keys;
    private final Path warehouse;
    private final TableSizes sizes;
    private final BenchGenFactory.Rows generator;
    private TableContents left;
    private List<Row> looked = List.of();

    /**
     * @param keyMultiple keys are a multiple of it, so that at each parallelism that divides it the
     *     writes of a key come from one subtask ({@link BenchGenFactory})
     */
    PrimaryKeyBenchmark(long rows, Path warehouse, TableSizes sizes, int keyMultiple) {
        this.rows = rows;
        this.keys = Math.max(1, rows / 4 / keyMultiple) * keyMultiple;
        this.warehouse = warehouse;
        this.sizes = sizes;
        this.generator = new BenchGenFactory.Rows(rows, keys);
    }

    long rows() {
        return rows;
    }

    /** Rows the upserts leave: one per key written. */
    long keys() {
        return Math.min(rows, keys);
    }

    /** The DDL of {@code name} after {@code CREATE TABLE <catalog>.bench.}, with extra options. */
    private String table(String name, List<String> extra) {
        List<String> options = new ArrayList<>(List.of("'bucket' = '4'"));
        options.addAll(sizes.primaryKeyOptions());
        options.addAll(extra);
        return name
                + " ("
                + COLUMNS
                + ", PRIMARY KEY (id) NOT ENFORCED)"
                + TableSizes.with(options);
    }

    private static List<String> changelog(String changelogProducer) {
        return changelogProducer.equals("none")
                ? List.of()
                : List.of("'changelog-producer' = '" + changelogProducer + "'");
    }

    private TableEnvironment env(boolean streaming, int parallelism) {
        TableEnvironment env = SessionCluster.environment(streaming, parallelism);
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
                "CREATE TEMPORARY TABLE bh ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-blackhole')");
        // Scans go to a blackhole without NOT NULL, so that their pipelines measure the reader,
        // not a NOT NULL check that Flink adds before a sink declaring one.
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SCAN_SINK
                        + " ("
                        + COLUMNS.replace(" NOT NULL", "")
                        + ") WITH ('connector' = 'bench-blackhole')");
        SessionCluster.addCatalog(env, "tarn", warehouse);
        return env;
    }

    private TableEnvironment paimonEnv(boolean streaming, int parallelism) {
        TableEnvironment env = env(streaming, parallelism);
        SessionCluster.addCatalog(env, "paimon", warehouse);
        return env;
    }

    /** An environment with the catalog {@code catalog} ({@code lake} or {@code paimon}). */
    TableEnvironment env(String catalog, boolean streaming, int parallelism) {
        return catalog.equals("paimon")
                ? paimonEnv(streaming, parallelism)
                : env(streaming, parallelism);
    }

    void blackhole(int parallelism) throws Exception {
        env(false, parallelism).executeSql("INSERT INTO bh SELECT * FROM gen").await();
    }

    /**
     * @param changelogProducer the table's {@code changelog-producer}, a key both systems share:
     *     {@code none}, or {@code lookup} for the changelog's cost
     */
    void writeTarn(boolean streaming, int parallelism, String changelogProducer) throws Exception {
        write("lake", USERS, changelog(changelogProducer), streaming, parallelism);
    }

    void writePaimon(boolean streaming, int parallelism, String changelogProducer)
            throws Exception {
        write("paimon", USERS, changelog(changelogProducer), streaming, parallelism);
    }

    /**
     * Creates {@code table} of {@code catalog} anew, with the benchmark's options and {@code
     * extra}, and writes the upserts into it (streaming: with a checkpoint every 2 seconds).
     */
    void write(String catalog, String table, List<String> extra, boolean streaming, int parallelism)
            throws Exception {
        TableEnvironment env = env(catalog, streaming, parallelism);
        env.executeSql("DROP TABLE IF EXISTS " + catalog + ".bench." + table);
        env.executeSql("CREATE TABLE " + catalog + ".bench." + table(table, extra));
        env.executeSql("INSERT INTO " + catalog + ".bench." + table + " SELECT * FROM gen").await();
    }

    void scanTarn(int parallelism) throws Exception {
        scan("lake", USERS, "", parallelism);
    }

    void scanPaimon(int parallelism) throws Exception {
        scan("paimon", USERS, "", parallelism);
    }

    /**
     * A batch scan of {@code table} of {@code catalog} with {@code where} (or "") into a blackhole.
     */
    void scan(String catalog, String table, String where, int parallelism) throws Exception {
        env(catalog, false, parallelism)
                .executeSql(
                        "INSERT INTO "
                                + SCAN_SINK
                                + " SELECT * FROM "
                                + catalog
                                + ".bench."
                                + table
                                + where)
                .await();
    }

    /** A scan of an empty primary-key table: the fixed cost of planning and running a job. */
    void scanEmptyTarn(int parallelism) throws Exception {
        TableEnvironment env = env(false, parallelism);
        env.executeSql(
                "CREATE TABLE IF NOT EXISTS lake.bench.no_rows ("
                        + COLUMNS
                        + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')");
        env.executeSql("INSERT INTO scan_bh SELECT * FROM lake.bench.no_rows").await();
    }

    void lookupTarn(int parallelism) throws Exception {
        lookup(env(false, parallelism), "lake");
    }

    void lookupPaimon(int parallelism) throws Exception {
        lookup(paimonEnv(false, parallelism), "paimon");
    }

    private long lookupKey() {
        return Math.min(LOOKUP_KEY, keys());
    }

    private void lookup(TableEnvironment env, String catalog) throws Exception {
        List<Row> found = new ArrayList<>();
        try (CloseableIterator<Row> it =
                env.executeSql(
                                "SELECT * FROM "
                                        + catalog
                                        + ".bench.users WHERE id = "
                                        + lookupKey())
                        .collect()) {
            it.forEachRemaining(found::add);
        }
        looked = found;
    }

    /** Fails unless the last point lookup found the key's last write, alone. */
    void checkLookup() {
        long expected = RowChecksum.of(generator.row(lastWrite(lookupKey())));
        if (looked.size() != 1 || RowChecksum.of(looked.get(0)) != expected) {
            throw new WrongResultException(
                    String.format(
                            "point lookup of key %d found %s, expected one row with checksum %d",
                            lookupKey(), looked, expected));
        }
    }

    /** The last row the generator writes for a key: each is written among the last keys rows. */
    private long lastWrite(long key) {
        for (long i = Math.max(0, rows - keys); i < rows; i++) {
            if (generator.id(i) == key) {
                return i;
            }
        }
        throw new IllegalArgumentException("The generator never writes key " + key);
    }

    /** Fails unless the last scan's sink received one row per key. */
    void checkScanned() {
        checkScanned(keys());
    }

    /** Fails unless the last scan's sink received {@code expected} rows. */
    static void checkScanned(long expected) {
        CountingSinkFactory.check(SCAN_SINK, expected);
    }

    /** The last {@code n} rows the generator writes: the current rows of {@code n} keys. */
    List<RowData> lastWrites(int n) {
        List<RowData> last = new ArrayList<>();
        for (long i = Math.max(rows - keys, rows - n); i < rows; i++) {
            last.add(generator.row(i));
        }
        return last;
    }

    /** How many of the rows the upserts leave (the last write of each key) pass {@code filter}. */
    long leftRowsWhere(Predicate<RowData> filter) {
        long count = 0;
        for (long i = Math.max(0, rows - keys); i < rows; i++) {
            if (filter.test(generator.row(i))) {
                count++;
            }
        }
        return count;
    }

    /** Fails unless the empty table's scan received nothing. */
    static void checkScannedNothing() {
        CountingSinkFactory.check(SCAN_SINK, 0);
    }

    /** Fails unless the ceiling's sink received every generated row. */
    void checkGenerated() {
        CountingSinkFactory.check("bh", rows);
    }

    /**
     * Fails unless the table of {@code catalog} holds the last write of every key: the last {@code
     * keys} rows of the generator, every key once.
     */
    void checkTable(String catalog) throws Exception {
        checkTable(catalog, USERS);
    }

    /** As {@link #checkTable(String)}, for {@code table} of {@code catalog}. */
    void checkTable(String catalog, String table) throws Exception {
        left().check(env(catalog, false, 1), catalog + ".bench." + table);
    }

    /** What the upserts leave: the last write of every key. */
    TableContents left() {
        if (left == null) {
            left = TableContents.generated(generator, Math.max(0, rows - keys), rows);
        }
        return left;
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
