package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

/**
 * The lookup-join issue's figures beside throughput, each a streaming join on the session cluster
 * against its own dimension table, Tarn and (with {@code --paimon}) Paimon with default options:
 *
 * <ul>
 *   <li>Start-up: from the submission of a join against a table of {@code startKeys} keys to its
 *       first joined row ({@link Arrivals#firstAt}), at parallelism 1.
 *   <li>Memory: the heap this JVM (the session cluster's task manager) holds after a GC while a
 *       join against that table runs at parallelism 2, over the heap before it; then Tarn's join
 *       with {@code 'lookup.cache-max-memory-size'} a tenth of what its subtask held, which must
 *       run to the end with the expected result.
 *   <li>Freshness: while facts arrive at {@value #FRESH_RATE} per second, commits through each
 *       system's Java API ({@link LakeSystem#writer}) every 150-250 ms each give {@value
 *       #KEYS_PER_COMMIT} keys of a {@value #FRESH_KEYS}-key table a new tier (the commit's
 *       number); from the commit's return to the first fact joined with its tier.
 * </ul>
 */
final class LookupStreamBenchmarks {

    static final long FRESH_KEYS = 1_000;
    static final int KEYS_PER_COMMIT = 10;
    static final long FRESH_RATE = 20_000;
    private static final String FRESH_TABLE = "dim_fresh";
    private static final String FRESH_SINK = "fresh";

    /** Facts of a job that runs until cancelled. */
    private static final long ENDLESS = 1_000_000_000_000L;

    /** Joined rows a memory run waits for: enough that every subtask has loaded its buckets. */
    private static final long MEMORY_ROWS = 200_000;

    /** A bootstrap of ten million keys may take minutes on a busy machine. */
    private static final Duration STALL = Duration.ofMinutes(10);

    private final LookupJoinBenchmark start;
    private final Path warehouse;
    private final List<String> systems;
    private final PrintStream out;

    /**
     * @param start the join against the start-up table, whose {@code facts} the memory budget's
     *     checked run joins
     * @param systems the systems whose planner accepts a lookup join
     */
    LookupStreamBenchmarks(
            LookupJoinBenchmark start, Path warehouse, List<String> systems, PrintStream out) {
        this.start = start;
        this.warehouse = warehouse;
        this.systems = systems;
        this.out = out;
    }

    /**
     * @param parts which of {@code start-up}, {@code memory} and {@code freshness} to run
     */
    void run(int runs, List<String> parts) throws Exception {
        if (parts.contains("start-up") || parts.contains("memory")) {
            writeStartTables();
        }
        if (parts.contains("start-up")) {
            startUp(runs);
        }
        if (parts.contains("memory")) {
            memory();
        }
        if (parts.contains("freshness")) {
            freshness(runs);
        }
    }

    private void writeStartTables() throws Exception {
        for (String system : systems) {
            long t0 = System.nanoTime();
            start.writeDimension(system, 2);
            out.printf(
                    "  %s: start-up table of %,d keys written in %.1f s%n",
                    system, start.dimKeys(), (System.nanoTime() - t0) / 1e9);
        }
    }

    private void startUp(int runs) throws Exception {
        List<List<Double>> seconds = new ArrayList<>();
        systems.forEach(s -> seconds.add(new ArrayList<>()));
        List<Double> tarnLoaded = new ArrayList<>();
        for (int round = 1; round <= runs; round++) {
            for (int s = 0; s < systems.size(); s++) {
                LookupJoinBenchmark.Variant join =
                        new LookupJoinBenchmark.Variant(systems.get(s), false, false);
                Arrivals arrivals = ArrivalSinkFactory.expect(LookupJoinBenchmark.SINK, 1, false);
                TableEnvironment env = endlessJoinEnv(join.system(), 1);
                long t0 = System.nanoTime();
                try (StreamingJob job =
                        StreamingJob.start(env, LookupJoinBenchmark.join(join, start.table()))) {
                    awaitOrFail(job, arrivals, () -> arrivals.total() >= 1, join.label());
                    seconds.get(s).add((arrivals.firstAt() - t0) / 1e9);
                    if (systems.get(s).equals("tarn")) {
                        awaitLoads(join.label());
                        tarnLoaded.add((System.nanoTime() - t0) / 1e9);
                    }
                }
            }
        }
        out.printf(
                "%nStart-up: submission to the first joined row, %,d-key table, parallelism 1,"
                        + " default options:%n",
                start.dimKeys());
        for (int s = 0; s < systems.size(); s++) {
            out.printf(
                    "  %-8s median %.2f s (runs: %s)%n",
                    systems.get(s), median(seconds.get(s)), format(seconds.get(s)));
        }
        if (!tarnLoaded.isEmpty()) {
            out.printf(
                    "  tarn's join answers from the table's files until its buckets are loaded;"
                            + " loaded at a median of %.2f s (runs: %s)%n",
                    median(tarnLoaded), format(tarnLoaded));
        }
    }

    private TableEnvironment endlessJoinEnv(String system, int parallelism) {
        return start.env(system, parallelism, ENDLESS, 0, "bench-arrivals");
    }

    /** Fails naming the join unless {@code done} holds before the job ends or stalls. */
    private static void awaitOrFail(
            StreamingJob job, Arrivals arrivals, BooleanSupplier done, String join)
            throws InterruptedException {
        Optional<String> shortfall = job.await(arrivals, done, STALL);
        if (shortfall.isPresent()) {
            throw new IllegalStateException(join + ": " + shortfall.get());
        }
    }

    private void memory() throws Exception {
        out.printf(
                "%nMemory: heap held (after a GC) while a join against the %,d-key table runs at"
                        + " parallelism 2, over the heap before it:%n",
                start.dimKeys());
        long tarnShuffled = 0;
        for (String system : systems) {
            for (boolean shuffle : List.of(false, true)) {
                LookupJoinBenchmark.Variant join =
                        new LookupJoinBenchmark.Variant(system, false, shuffle);
                Held held = heldWhileRunning(join, "");
                out.printf(
                        "  %-30s heap %,8.0f MB (%,.0f MB per subtask), resident memory %+,.0f"
                                + " MB%n",
                        join.label(), held.heap / 1e6, held.heap / 2e6, held.resident / 1e6);
                if (system.equals("tarn") && shuffle) {
                    tarnShuffled = held.heap;
                }
            }
        }
        if (systems.contains("tarn")) {
            // Per subtask: a tenth of what the subtask held with no budget but the default.
            long budget = Math.max(1 << 20, tarnShuffled / 2 / 10);
            String option = "'lookup.cache-max-memory-size' = '" + budget + " b'";
            LookupJoinBenchmark.Variant join = new LookupJoinBenchmark.Variant("tarn", false, true);
            Held held = heldWhileRunning(join, option);
            out.printf(
                    "  %-30s heap %,8.0f MB (%,.0f MB per subtask), resident memory %+,.0f MB,"
                            + " with %s%n",
                    join.label(), held.heap / 1e6, held.heap / 2e6, held.resident / 1e6, option);
            long t0 = System.nanoTime();
            start.runJoin(join, 2, option);
            start.checkJoin(false);
            out.printf(
                    "  %s of %,d facts with %s: %.1f s, result as expected%n",
                    join.label(), start.facts(), option, (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * What a join holds once {@value #MEMORY_ROWS} rows were joined and its lookup loaded, over
     * what this JVM held before: heap after a GC, and resident memory (where native stores such as
     * RocksDB show).
     */
    private record Held(long heap, long resident) {}

    private Held heldWhileRunning(LookupJoinBenchmark.Variant join, String dimOptions)
            throws Exception {
        long before = heapAfterGc();
        long residentBefore = residentBytes();
        Arrivals arrivals = ArrivalSinkFactory.expect(LookupJoinBenchmark.SINK, MEMORY_ROWS, false);
        TableEnvironment env = endlessJoinEnv(join.system(), 2);
        try (StreamingJob job =
                StreamingJob.start(
                        env, LookupJoinBenchmark.join(join, start.table(), dimOptions))) {
            awaitOrFail(job, arrivals, () -> arrivals.total() >= MEMORY_ROWS, join.label());
            awaitLoads(join.label());
            return new Held(heapAfterGc() - before, residentBytes() - residentBefore);
        }
    }

    /**
     * Waits until no thread of this JVM loads a Tarn lookup: a Tarn join answers from the table's
     * files while its buckets load, so its first rows come before it holds what it will hold.
     */
    private static void awaitLoads(String join) throws InterruptedException {
        long deadline = System.nanoTime() + STALL.toNanos();
        while (Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith("tarn-lookup-load-"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        join + ": its lookup load did not end within " + STALL);
            }
            Thread.sleep(50);
        }
    }

    /** This process's resident memory (VmRSS), or 0 where /proc does not tell it. */
    private static long residentBytes() {
        try {
            for (String line :
                    java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            // Not Linux: the heap figure stands alone.
        }
        return 0;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private void freshness(int runs) throws Exception {
        out.printf(
                "%nFreshness: commit of %d keys' new tier (of %,d keys) every 150-250 ms, facts at"
                        + " %,d/s, parallelism 1, default options; seconds from the commit to the"
                        + " first fact joined with it:%n",
                KEYS_PER_COMMIT, FRESH_KEYS, FRESH_RATE);
        for (int round = 1; round <= runs; round++) {
            for (String system : systems) {
                FreshnessBenchmark.Freshness f = freshnessRun(system);
                out.printf(
                        "  %-8s round %d: p50 %.3f s, p99 %.3f s, max %.3f s%n",
                        system, round, f.p50(), f.p99(), f.max());
            }
        }
    }

    private FreshnessBenchmark.Freshness freshnessRun(String system) throws Exception {
        LakeSystem lake =
                system.equals("tarn")
                        ? new TarnSystem("file://" + warehouse.resolve(system).toAbsolutePath())
                        : LakeSystem.paimon("file://" + warehouse.resolve(system).toAbsolutePath());
        TableEnvironment env = SessionCluster.environment(true, 1);
        lake.addCatalog(env);
        env.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE facts (%s, proc_time AS PROCTIME()) WITH"
                                + " ('connector' = 'bench-datagen', 'rows' = '%d', 'keys' = '%d',"
                                + " 'rows-per-second' = '%d')",
                        PrimaryKeyBenchmark.COLUMNS, ENDLESS, FRESH_KEYS, FRESH_RATE));
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + FRESH_SINK
                        + " (tier INT, cid BIGINT) WITH ('connector' = 'bench-arrivals')");
        env.executeSql("DROP TABLE IF EXISTS " + lake.table(FRESH_TABLE));
        env.executeSql(
                "CREATE TABLE "
                        + lake.table(FRESH_TABLE)
                        + " (id BIGINT NOT NULL, name STRING, tier INT, score DOUBLE,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')");
        int commits = commits();
        Arrivals arrivals = ArrivalSinkFactory.expect(FRESH_SINK, Long.MAX_VALUE, true);
        long[] published = new long[commits + 1];
        Random gaps = new Random(42);
        try (InProcessWriter writer = lake.writer(FRESH_TABLE)) {
            for (long id = 1; id <= FRESH_KEYS; id++) {
                writer.write(row(id, 0));
            }
            writer.commit();
            try (StreamingJob job =
                    StreamingJob.start(
                            env,
                            "INSERT INTO "
                                    + FRESH_SINK
                                    + " SELECT d.tier, f.id FROM facts AS f JOIN "
                                    + lake.table(FRESH_TABLE)
                                    + " FOR SYSTEM_TIME AS OF f.proc_time AS d ON f.id = d.id")) {
                String label = system + " freshness";
                awaitOrFail(job, arrivals, () -> arrivals.firstArrival(0) != null, label);
                for (int batch = 1; batch <= commits; batch++) {
                    Thread.sleep(150 + gaps.nextInt(101));
                    for (long id : idsOf(batch)) {
                        writer.write(row(id, batch));
                    }
                    writer.commit();
                    published[batch] = System.nanoTime();
                }
                awaitOrFail(
                        job,
                        arrivals,
                        () -> arrivals.batchRows().size() == commits + 1,
                        label + " (every commit's tier joined)");
            }
        }
        List<Double> seconds = new ArrayList<>();
        for (int batch = 1; batch <= commits; batch++) {
            seconds.add((arrivals.firstArrival(batch) - published[batch]) / 1e9);
        }
        return FreshnessBenchmark.Freshness.of(seconds);
    }

    /**
     * The ids commit {@code batch} (from 1) gives its tier: no two commits share one, so a join
     * that applies several commits at once (or only the latest of them) still joins each commit's
     * tier, and every commit is measured.
     */
    static List<Long> idsOf(int batch) {
        List<Long> ids = new ArrayList<>();
        for (int n = 0; n < KEYS_PER_COMMIT; n++) {
            ids.add((batch - 1L) * KEYS_PER_COMMIT + n + 1);
        }
        return ids;
    }

    /** Commits of a freshness run: each key of the table gets a new tier once. */
    static int commits() {
        return (int) (FRESH_KEYS / KEYS_PER_COMMIT);
    }

    private static GenericRowData row(long id, int tier) {
        return GenericRowData.of(id, StringData.fromString("customer " + id), tier, 0.0);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String format(List<Double> values) {
        return values.stream()
                .map(v -> String.format("%.2f", v))
                .reduce((a, b) -> a + " " + b)
                .orElse("");
    }
}
