package dev.tarn.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * The lookup-join workload ({@code --lookup-join}): a primary-key dimension table {@code (id
 * BIGINT, name STRING, tier INT, score DOUBLE)} of {@code dimKeys} ids 1..dimKeys in 4 buckets,
 * written once in batch per system, and facts from the FLIP-27 generator ({@link BenchGenFactory})
 * with a processing-time attribute, whose ids cycle uniformly through 1..{@link #factKeys()}: about
 * 5% more than the dimension holds, so about 1 fact in 21 misses. Each job joins the facts with the
 * dimension {@code FOR SYSTEM_TIME AS OF f.proc_time} into a {@link JoinSinkFactory} sink, and its
 * result is checked against the join the generator implies: the dimension row of id x is the
 * generator's row x - 1 (name = s1, tier = k % 10, score = price).
 */
final class LookupJoinBenchmark {

    /** The dimension table of the throughput pipelines. */
    static final String DIM = "dim";

    /** The sink every join and the ceiling write. */
    static final String SINK = "joined";

    private static final String DIM_COLUMNS =
            "id BIGINT NOT NULL, name STRING, tier INT, score DOUBLE";
    private static final String OUTPUT = "cid BIGINT, k INT, name STRING, tier INT";

    /**
     * The system of the floor: a dimension in an array indexed by id ({@link
     * ArrayDimensionFactory}), a free lookup through Flink's lookup join.
     */
    static final String ARRAY = "array";

    private static final String ARRAY_TABLE = "array_dim";

    /** Facts' ids span this many times the dimension's keys: the rest are misses. */
    private static final double ID_SPAN = 1.05;

    /** A join under test: one system's, inner or left, with Flink's shuffle hint or without. */
    record Variant(String system, boolean left, boolean shuffle) {

        String catalog() {
            return system.equals("tarn") ? "lake" : "paimon";
        }

        /**
         * The dimension the join reads: {@code table} in the system's catalog, or for {@link
         * #ARRAY} the temporary table {@link LookupJoinBenchmark#env} makes.
         */
        String dimension(String table) {
            return system.equals(ARRAY) ? ARRAY_TABLE : catalog() + ".bench." + table;
        }

        /** How the report names it: {@code tarn join}, {@code paimon left join, shuffle}. */
        String label() {
            return system + (left ? " left join" : " join") + (shuffle ? ", shuffle hint" : "");
        }
    }

    private final String table;
    private final long facts;
    private final long dimKeys;
    private final long factKeys;
    private final Path warehouse;
    private final TableSizes sizes;
    private final BenchGenFactory.Rows factRows;
    private final BenchGenFactory.Rows dimRows;
    private JoinSinkFactory.Totals innerResult;
    private JoinSinkFactory.Totals leftResult;
    private JoinSinkFactory.Totals ceilingResult;

    /**
     * @param keyMultiple the facts' key count is a multiple of it, as the generator needs at each
     *     parallelism that divides it
     */
    LookupJoinBenchmark(
            long facts, long dimKeys, int keyMultiple, Path warehouse, TableSizes sizes) {
        this(DIM, facts, dimKeys, keyMultiple, warehouse, sizes);
    }

    /** As the other constructor, for dimension table {@code table}. */
    LookupJoinBenchmark(
            String table,
            long facts,
            long dimKeys,
            int keyMultiple,
            Path warehouse,
            TableSizes sizes) {
        this.table = table;
        this.facts = facts;
        this.dimKeys = dimKeys;
        long span = (long) Math.ceil(dimKeys * ID_SPAN);
        this.factKeys = (span + keyMultiple - 1) / keyMultiple * keyMultiple;
        this.warehouse = warehouse;
        this.sizes = sizes;
        this.factRows = new BenchGenFactory.Rows(facts, factKeys);
        this.dimRows = new BenchGenFactory.Rows(dimKeys, 0);
    }

    String table() {
        return table;
    }

    long facts() {
        return facts;
    }

    long dimKeys() {
        return dimKeys;
    }

    long factKeys() {
        return factKeys;
    }

    /** A streaming environment with the facts, the sink and {@code system}'s catalog. */
    TableEnvironment env(String system, int parallelism) {
        return env(system, parallelism, facts, 0, "bench-join-sink");
    }

    /**
     * A streaming environment with {@code rows} facts ({@code rowsPerSecond}, 0 for unlimited),
     * {@link #SINK} of connector {@code sink} and {@code system}'s catalog.
     */
    TableEnvironment env(
            String system, int parallelism, long rows, long rowsPerSecond, String sink) {
        TableEnvironment env = SessionCluster.environment(true, parallelism);
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE facts (%s, proc_time AS PROCTIME()) WITH"
                                + " ('connector' = 'bench-datagen', 'rows' = '%d', 'keys' = '%d',"
                                + " 'rows-per-second' = '%d')",
                        PrimaryKeyBenchmark.COLUMNS, rows, factKeys, rowsPerSecond));
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + OUTPUT
                        + ") WITH ('connector' = '"
                        + sink
                        + "')");
        if (system.equals(ARRAY)) {
            env.executeSql(
                    String.format(
                            "CREATE TEMPORARY TABLE %s (%s) WITH ('connector' = 'bench-array-dim',"
                                    + " 'keys' = '%d')",
                            ARRAY_TABLE, ArrayDimensionFactory.COLUMNS, dimKeys));
        } else {
            SessionCluster.addCatalog(env, system, warehouse);
        }
        return env;
    }

    /** Creates the dimension table of {@code system} anew and writes ids 1..dimKeys in batch. */
    void writeDimension(String system, int parallelism) throws Exception {
        TableEnvironment env = SessionCluster.environment(false, parallelism);
        SessionCluster.addCatalog(env, system, warehouse);
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE dim_gen (%s) WITH ('connector' = 'bench-datagen',"
                                + " 'rows' = '%d')",
                        PrimaryKeyBenchmark.COLUMNS, dimKeys));
        String name = catalog(system) + ".bench." + table;
        List<String> options = new ArrayList<>(List.of("'bucket' = '4'"));
        options.addAll(sizes.primaryKeyOptions());
        env.executeSql("DROP TABLE IF EXISTS " + name);
        env.executeSql(
                "CREATE TABLE "
                        + name
                        + " ("
                        + DIM_COLUMNS
                        + ", PRIMARY KEY (id) NOT ENFORCED)"
                        + TableSizes.with(options));
        env.executeSql("INSERT INTO " + name + " SELECT id, s1, k % 10, price FROM dim_gen")
                .await();
    }

    private static String catalog(String system) {
        return system.equals("tarn") ? "lake" : system;
    }

    /** The job without the join: the facts' columns, the dimension's as NULL. */
    static String ceiling() {
        return "INSERT INTO "
                + SINK
                + " SELECT f.id, f.k, CAST(NULL AS STRING), CAST(NULL AS INT) FROM facts AS f";
    }

    /** The join of {@code variant} against {@code table}, into {@link #SINK}. */
    static String join(Variant variant, String table) {
        return join(variant, table, "");
    }

    /**
     * As {@link #join(Variant, String)}, with {@code dimOptions} (e.g. {@code 'a' = 'b'}) as an
     * OPTIONS hint on the dimension table, or "" for none.
     */
    static String join(Variant variant, String table, String dimOptions) {
        return "INSERT INTO "
                + SINK
                + " SELECT "
                + (variant.shuffle() ? "/*+ LOOKUP('table'='d', 'shuffle'='true') */ " : "")
                + "f.id, f.k, d.name, d.tier FROM facts AS f "
                + (variant.left() ? "LEFT JOIN " : "JOIN ")
                + variant.dimension(table)
                + (dimOptions.isEmpty() ? "" : " /*+ OPTIONS(" + dimOptions + ") */")
                + " FOR SYSTEM_TIME AS OF f.proc_time AS d ON f.id = d.id";
    }

    /**
     * Why {@code system}'s planner refuses the inner join against the dimension, or empty if it
     * plans it: a system without lookup joins is reported, not measured.
     */
    Optional<String> refusal(String system) {
        try {
            env(system, 1).explainSql(join(new Variant(system, false, false), table));
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(StreamingJob.Refused.describe(e));
        }
    }

    void runCeiling(int parallelism) throws Exception {
        env("tarn", parallelism).executeSql(ceiling()).await();
    }

    void runJoin(Variant variant, int parallelism) throws Exception {
        runJoin(variant, parallelism, "");
    }

    /** A join with {@code dimOptions} as in {@link #join(Variant, String, String)}. */
    void runJoin(Variant variant, int parallelism, String dimOptions) throws Exception {
        env(variant.system(), parallelism).executeSql(join(variant, table, dimOptions)).await();
    }

    /** Fails unless the sink received every fact, with NULL dimension columns. */
    void checkCeiling() {
        JoinSinkFactory.check(SINK, ceilingResult());
    }

    /** Fails unless the sink received the inner or left join the generator implies. */
    void checkJoin(boolean left) {
        JoinSinkFactory.check(SINK, left ? leftResult() : innerResult());
    }

    JoinSinkFactory.Totals ceilingResult() {
        if (ceilingResult == null) {
            computeResults();
        }
        return ceilingResult;
    }

    JoinSinkFactory.Totals innerResult() {
        if (innerResult == null) {
            computeResults();
        }
        return innerResult;
    }

    JoinSinkFactory.Totals leftResult() {
        if (leftResult == null) {
            computeResults();
        }
        return leftResult;
    }

    /** The three results, in one pass over the facts. */
    private void computeResults() {
        long inner = 0;
        long innerSum = 0;
        long leftSum = 0;
        long ceilingSum = 0;
        for (long i = 0; i < facts; i++) {
            long cid = factRows.id(i);
            int k = factRows.k(i);
            long unmatched = JoinSinkFactory.checksum(cid, k, null, null);
            ceilingSum += unmatched;
            if (cid <= dimKeys) {
                RowData dim = dimRows.row(cid - 1);
                long matched =
                        JoinSinkFactory.checksum(
                                cid, k, dim.getString(2).toString(), dim.getInt(1) % 10);
                inner++;
                innerSum += matched;
                leftSum += matched;
            } else {
                leftSum += unmatched;
            }
        }
        innerResult = new JoinSinkFactory.Totals(inner, innerSum);
        leftResult = new JoinSinkFactory.Totals(facts, leftSum);
        ceilingResult = new JoinSinkFactory.Totals(facts, ceilingSum);
    }
}
