package dev.tarn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.api.TableEnvironment;

/**
 * End-to-end throughput of Tarn pipelines on an embedded Flink at parallelism 1, each compared with
 * the same pipeline into Flink's blackhole sink (the ceiling) and, with {@code --paimon}, into
 * Apache Paimon. Prints medians of several runs: seconds, rows/s and CPU-seconds per million rows.
 * Usage: {@code Benchmarks [--rows N] [--runs R] [--paimon] [--only TEXT] [--cpu-breakdown]
 * [--primary-key | --commit-latency]}, where {@code --only} keeps the pipelines whose name contains
 * the text and {@code --cpu-breakdown} prints each run's CPU time by thread kind.
 */
public final class Benchmarks {

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // Flink's cluster threads are not daemons: without an exit, a failed benchmark would
            // leave the JVM waiting for them instead of failing.
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(String[] args) throws Exception {
        Map<String, String> flags = flags(args);
        long rows = Long.parseLong(flags.getOrDefault("rows", "5000000"));
        int runs = Integer.parseInt(flags.getOrDefault("runs", "3"));
        boolean paimon = flags.containsKey("paimon");
        Path warehouse = Files.createTempDirectory("tarn-bench");
        Measurement.printBreakdown = flags.containsKey("cpu-breakdown");
        SessionCluster.start();
        if (flags.containsKey("commit-latency")) {
            CommitLatencyBenchmark.run(warehouse, List.of(10, 5000));
            return;
        }
        if (flags.containsKey("primary-key")) {
            primaryKey(rows, runs, paimon, warehouse, flags.get("only"));
            return;
        }
        System.out.printf(
                "Tarn benchmarks: %,d rows of 8 columns, parallelism 1, %d runs each%n",
                rows, runs);
        System.out.println("Warehouse: " + warehouse.toUri());

        // Warm up the JIT and load the planner's classes, so the first measured run is not the
        // only one that pays for them: a few small runs of each pipeline warm what runs once per
        // job (planning, job submission and its serialization), then one of 2M rows warms what
        // runs once per page or file (compression, page indexes, footers).
        for (long warmupRows : new long[] {200_000, 200_000, 200_000, 2_000_000}) {
            AppendBenchmark warmup =
                    new AppendBenchmark(
                            Math.min(rows, warmupRows),
                            warehouse.resolve("warmup-" + System.nanoTime()));
            warmup.blackhole();
            warmup.writeTarn();
            warmup.scanTarn();
            if (paimon) {
                warmup.writePaimon();
                warmup.scanPaimon();
            }
        }
        AppendBenchmark append = new AppendBenchmark(rows, warehouse);
        Map<String, Measurement.ThrowingRunnable> pipelines = new LinkedHashMap<>();
        pipelines.put(CEILING, append::blackhole);
        pipelines.put("datagen -> tarn append table", append::writeTarn);
        if (paimon) {
            pipelines.put("datagen -> paimon append table", append::writePaimon);
        }
        pipelines.put("tarn full scan -> blackhole", append::scanTarn);
        if (paimon) {
            pipelines.put("paimon full scan -> blackhole", append::scanPaimon);
        }
        pipelines.put(OVERHEAD, append::scanEmptyTarn);
        pipelines.put(FILTER, append::filterTarn);
        if (paimon) {
            pipelines.put("paimon filter id BETWEEN 1000 AND 1999", append::filterPaimon);
        }
        String only = flags.get("only");
        if (only != null) {
            pipelines
                    .keySet()
                    .removeIf(
                            name ->
                                    !name.equals(CEILING)
                                            && !name.equals(OVERHEAD)
                                            && !name.contains(only));
        }
        // Rounds, not one pipeline after another: drift of the machine (JIT, caches, other load)
        // then spreads over every pipeline instead of favouring the ones measured last.
        Map<String, List<Measurement>> results = new LinkedHashMap<>();
        for (int round = 1; round <= runs; round++) {
            System.out.println("Round " + round + " of " + runs);
            for (Map.Entry<String, Measurement.ThrowingRunnable> p : pipelines.entrySet()) {
                results.computeIfAbsent(p.getKey(), k -> new ArrayList<>())
                        .add(Measurement.of(p.getKey(), p.getValue()));
            }
        }
        Report report = new Report(rows);
        results.forEach(report::add);
        report.print(System.out);
        report.printNetOfOverhead(System.out, OVERHEAD);
        if (!pipelines.containsKey(FILTER)) {
            return;
        }
        System.out.printf(
                "Selective filter reads %.2f%% of the table's data bytes (%,d of %,d).%n",
                100.0 * append.filterBytesRead() / append.tableBytes(),
                append.filterBytesRead(),
                append.tableBytes());
    }

    /** The primary-key issue's pipelines: upserts over rows / 4 keys, scan and lookup. */
    private static void primaryKey(
            long rows, int runs, boolean paimon, Path warehouse, @Nullable String only)
            throws Exception {
        PrimaryKeyBenchmark pk = new PrimaryKeyBenchmark(rows, warehouse);
        System.out.printf(
                "Primary-key benchmarks: %,d upserts of 8 columns over %,d keys, 4 buckets,"
                        + " parallelism 1, %d runs each%n",
                rows, pk.keys(), runs);
        PrimaryKeyBenchmark warmup =
                new PrimaryKeyBenchmark(Math.min(rows, 400_000), warehouse.resolve("warmup"));
        warmup.blackhole();
        warmup.writeTarn(false);
        warmup.scanTarn();
        if (paimon) {
            warmup.writePaimon(false);
            warmup.scanPaimon();
        }
        // One round, in order: the batch writes, then reads of what they left (one sorted run
        // per bucket), then the streaming writes, then reads of what those left (level-0 files of
        // the last checkpoints over compacted runs, merged on read).
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(CEILING, false, pk::blackhole));
        steps.add(new Step("upserts -> tarn pk table (batch)", false, () -> pk.writeTarn(false)));
        if (paimon) {
            steps.add(
                    new Step(
                            "upserts -> paimon pk table (batch)",
                            false,
                            () -> pk.writePaimon(false)));
        }
        steps.add(new Step("tarn scan -> blackhole (after batch)", true, pk::scanTarn));
        steps.add(new Step(PK_OVERHEAD, true, pk::scanEmptyTarn));
        steps.add(new Step("tarn point lookup by key", true, pk::lookupTarn));
        if (paimon) {
            steps.add(new Step("paimon scan -> blackhole (after batch)", true, pk::scanPaimon));
            steps.add(new Step("paimon point lookup by key", true, pk::lookupPaimon));
        }
        steps.add(
                new Step(
                        "upserts -> tarn pk table (stream, 2s cp)",
                        false,
                        () -> pk.writeTarn(true)));
        if (paimon) {
            steps.add(
                    new Step(
                            "upserts -> paimon pk table (stream, 2s cp)",
                            false,
                            () -> pk.writePaimon(true)));
        }
        steps.add(new Step("tarn scan -> blackhole (after stream)", true, pk::scanTarn));
        if (paimon) {
            steps.add(new Step("paimon scan -> blackhole (after stream)", true, pk::scanPaimon));
        }
        if (only != null) {
            // --only <text>: just the pipelines whose name contains it (for profiling one).
            steps.removeIf(
                    step ->
                            !step.name.equals(CEILING)
                                    && !step.name.equals(PK_OVERHEAD)
                                    && !step.name.contains(only));
        }
        Map<String, List<Measurement>> writeResults = new LinkedHashMap<>();
        Map<String, List<Measurement>> readResults = new LinkedHashMap<>();
        for (int round = 1; round <= runs; round++) {
            System.out.println("Round " + round + " of " + runs);
            for (Step step : steps) {
                if (step.read && step.name.contains("tarn scan")) {
                    pk.checkTarnCount();
                }
                (step.read ? readResults : writeResults)
                        .computeIfAbsent(step.name, k -> new ArrayList<>())
                        .add(Measurement.of(step.name, step.run));
            }
        }
        Report writeReport = new Report(rows);
        writeResults.forEach(writeReport::add);
        writeReport.print(System.out);
        System.out.printf("%nReads of the %,d rows the upserts leave:%n", pk.keys());
        if (!readResults.isEmpty()) {
            Report readReport = new Report(pk.keys());
            readResults.forEach(readReport::add);
            readReport.print(System.out);
            readReport.printNetOfOverhead(System.out, PK_OVERHEAD);
        }
        System.out.println();
        System.out.println(pk.writeAmplificationAndPeakHeap());
    }

    /** A pipeline of the primary-key benchmark: a write (rates per input row) or a read. */
    private record Step(String name, boolean read, Measurement.ThrowingRunnable run) {}

    private static final String CEILING = "datagen -> blackhole (ceiling)";
    private static final String PK_OVERHEAD = "job overhead (empty pk table scan)";
    private static final List<String> FLAGS =
            List.of(
                    "rows",
                    "runs",
                    "paimon",
                    "only",
                    "cpu-breakdown",
                    "primary-key",
                    "commit-latency");
    private static final String FILTER = "tarn filter id BETWEEN 1000 AND 1999";
    private static final String OVERHEAD = "job overhead (scan of an empty table)";

    static TableEnvironment batchEnv() {
        return SessionCluster.environment(false);
    }

    private static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument: " + args[i]);
            }
            String key = args[i].substring(2);
            if (!FLAGS.contains(key)) {
                throw new IllegalArgumentException(
                        "Unknown flag --"
                                + key
                                + ": expected one of --"
                                + String.join(", --", FLAGS));
            }
            boolean hasValue = i + 1 < args.length && !args[i + 1].startsWith("--");
            flags.put(key, hasValue ? args[++i] : "true");
        }
        return flags;
    }

    private Benchmarks() {}
}
