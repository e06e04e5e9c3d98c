package dev.tarn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * End-to-end throughput of Tarn pipelines on an embedded Flink, each compared with the same
 * pipeline into a blackhole sink (the ceiling) and, with {@code --paimon}, into Apache Paimon. The
 * writes, the ceiling and the full scans run at each parallelism of {@code --parallelism} (1 and 2
 * by default), the other reads at the lowest. Both systems' tables get the same row-group and file
 * sizes ({@link TableSizes}), or with {@code --defaults} each its own. Every pipeline is warmed up,
 * and every run is followed by a check of its result: a wrong one fails the benchmark. Prints
 * medians of several runs: seconds, rows/s and CPU-seconds per million rows. Usage: {@code
 * Benchmarks [--rows N] [--runs R] [--parallelism P,Q] [--paimon] [--defaults] [--only TEXT]
 * [--cpu-breakdown] [--primary-key | --deletion-vectors | --commit-latency | --s3-commit |
 * --streaming-read]}, where {@code --only} keeps the pipelines whose name contains the text and
 * {@code --cpu-breakdown} prints each run's CPU time by thread kind. {@code --streaming-read
 * [--rows N] [--runs R] [--paimon] [--defaults]} runs the streaming reads of {@link
 * StreamingReadBenchmarks} instead (freshness, requests of an idle reader, and throughput of a
 * full-then-changes read of {@code --rows} rows, at parallelism 1; {@code --only} keeps the
 * sections and pipelines whose name holds its text, e.g. {@code throughput} or {@code append}).
 * {@code --probe NAME [--rows N] [--runs R]} runs one of the single-threaded {@link Probes}
 * instead. {@code --cold} skips every warm-up and keeps only the pipelines {@code --only} names:
 * with {@code --runs 1}, the figure of a first job in a fresh JVM, as a user's first statement or a
 * per-job cluster sees it; {@code --warehouse DIR} keeps the tables in DIR, so that a cold scan in
 * a fresh JVM reads what an earlier JVM wrote (the scan's {@code --parallelism} the same as the
 * write's). {@code --schema-scan [--rows N] [--runs R]} runs the full scan of {@link
 * SchemaScanBenchmark} instead: files of three schema versions against one. {@code
 * --deletion-vectors} runs the streaming upserts into tables with and without deletion vectors and
 * their full and filtered scans instead ({@link DeletionVectorPipelines}), at parallelism 2 unless
 * {@code --parallelism} says otherwise, each read {@code --scan-repeats} times a round (1): the
 * reads are jobs of a fraction of a second, whose figures settle only after some twenty of them.
 * {@code --lookup-join [--lookup-keys K] [--lookup-start-keys S]} runs the lookup joins of {@code
 * --rows} facts against a table of K keys (1,000,000 by default; {@link LookupJoinPipelines}), then
 * their start-up, memory and freshness against a table of S keys (10,000,000; {@link
 * LookupStreamBenchmarks}). {@code --iceberg-commit [--runs N] [--rows R] [--paimon]} runs the
 * commit cost of Iceberg metadata and the Iceberg reader's scan rate of {@link
 * IcebergCommitBenchmark} instead.
 *
 * <p>The file stays over 400 lines because it is the one command line of every benchmark family:
 * each family's flags, defaults and set-up live here so that one usage line documents them all.
 */
public final class Benchmarks {

    public static void main(String[] args) {
        try {
            run(args);
        } catch (WrongResultException e) {
            System.err.println("Benchmark failed: " + e.getMessage());
            System.exit(1);
        } catch (Throwable e) {
            // Flink's cluster threads are not daemons: without an exit, a failed benchmark would
            // leave the JVM waiting for them instead of failing.
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(String[] args) throws Exception {
        Map<String, String> flags = Setup.flags(args);
        if (flags.containsKey("probe")) {
            Probes.run(flags.get("probe"), flags.get("rows"), flags.get("runs"), System.out);
            return;
        }
        if (flags.containsKey("iceberg-commit")) {
            Path dir = Files.createTempDirectory("tarn-bench");
            IcebergCommitBenchmark.run(
                    IcebergCommitBenchmark.Settings.parse(flags), dir, System.out);
            TempDirs.deleteTree(dir);
            return;
        }
        Setup setup = Setup.of(flags);
        Measurement.printBreakdown = flags.containsKey("cpu-breakdown");
        SessionCluster.start(Collections.max(setup.parallelisms()));
        try {
            run(setup, flags);
        } catch (Exception | Error e) {
            System.err.println("The run's tables are kept in " + setup.warehouse());
            throw e;
        }
        // The tables of a run without --warehouse go with it (a failed run keeps them to look at).
        if (setup.temporary()) {
            TempDirs.deleteTree(setup.warehouse());
        }
    }

    private static void run(Setup setup, Map<String, String> flags) throws Exception {
        if (flags.containsKey("streaming-read")) {
            new StreamingReadBenchmarks(
                            setup.rows(),
                            setup.runs(),
                            setup.paimon(),
                            setup.sizes(),
                            setup.warehouse(),
                            setup.only())
                    .run();
        } else if (flags.containsKey("schema-scan")) {
            SchemaScanBenchmark.run(setup.rows(), setup.runs(), setup.warehouse(), setup.sizes());
        } else if (flags.containsKey("s3-commit")) {
            S3CommitBenchmark.run(Integer.parseInt(flags.getOrDefault("runs", "100")));
        } else if (flags.containsKey("commit-latency")) {
            CommitLatencyBenchmark.run(
                    setup.warehouse(),
                    Arrays.stream(flags.getOrDefault("history", "10,5000").split(","))
                            .map(Integer::valueOf)
                            .toList());
            ExpirationBacklogBenchmark.run(setup.warehouse(), 5000);
        } else if (flags.containsKey("primary-key")) {
            primaryKey(setup);
        } else if (flags.containsKey("deletion-vectors")) {
            deletionVectors(setup);
        } else if (flags.containsKey("lookup-join")) {
            lookupJoin(
                    setup,
                    Long.parseLong(flags.getOrDefault("lookup-keys", "1000000")),
                    Long.parseLong(flags.getOrDefault("lookup-start-keys", "10000000")));
        } else {
            append(setup);
        }
    }

    private static void append(Setup setup) throws Exception {
        System.out.printf(
                "Tarn benchmarks: %,d rows of 8 columns, %s%n", setup.rows(), setup.describe());
        System.out.println("Warehouse: " + setup.warehouse().toUri());
        // Warm up the JIT and load the planner's classes, so the first measured run is not the
        // only one that pays for them: a few small runs of each pipeline warm what runs once per
        // job (planning, job submission and its serialization), then one of 2M rows warms what
        // runs once per page or file (compression, page indexes, footers).
        for (long warmupRows :
                setup.cold() ? new long[0] : new long[] {200_000, 200_000, 200_000, 2_000_000}) {
            AppendBenchmark warmup =
                    new AppendBenchmark(
                            Math.min(setup.rows(), warmupRows),
                            setup.warehouse().resolve("warmup-" + System.nanoTime()),
                            setup.sizes());
            Rounds.warmUp(
                    setup.only(
                            AppendPipelines.of(warmup, setup.parallelisms(), setup.paimon()),
                            AppendPipelines.OVERHEAD));
        }
        AppendBenchmark append =
                new AppendBenchmark(setup.rows(), setup.warehouse(), setup.sizes());
        List<Pipeline> pipelines =
                setup.only(
                        AppendPipelines.of(append, setup.parallelisms(), setup.paimon()),
                        AppendPipelines.OVERHEAD);
        Rounds.print(
                AppendPipelines.sections(append, setup.parallelisms()),
                Rounds.measure(pipelines, setup.runs()),
                System.out);
        if (pipelines.stream().anyMatch(p -> p.name().equals(AppendPipelines.FILTER))) {
            System.out.printf(
                    "Selective filter reads %.2f%% of the table's data bytes (%,d of %,d).%n",
                    100.0 * append.filterBytesRead() / append.tableBytes(),
                    append.filterBytesRead(),
                    append.tableBytes());
        }
    }

    /** The primary-key issue's pipelines: upserts over rows / 4 keys, scan and lookup. */
    private static void primaryKey(Setup setup) throws Exception {
        int keyMultiple = setup.parallelisms().stream().reduce(1, Benchmarks::lcm);
        PrimaryKeyBenchmark pk =
                new PrimaryKeyBenchmark(
                        setup.rows(), setup.warehouse(), setup.sizes(), keyMultiple);
        System.out.printf(
                "Primary-key benchmarks: %,d upserts of 8 columns over %,d keys, 4 buckets, %s%n",
                setup.rows(), pk.keys(), setup.describe());
        PrimaryKeyBenchmark warmup =
                new PrimaryKeyBenchmark(
                        Math.min(setup.rows(), 400_000),
                        setup.warehouse().resolve("warmup"),
                        setup.sizes(),
                        keyMultiple);
        if (!setup.cold()) {
            Rounds.warmUp(
                    setup.only(
                            PrimaryKeyPipelines.of(warmup, setup.parallelisms(), setup.paimon()),
                            PrimaryKeyPipelines.OVERHEAD));
        }
        List<Pipeline> pipelines =
                setup.only(
                        PrimaryKeyPipelines.of(pk, setup.parallelisms(), setup.paimon()),
                        PrimaryKeyPipelines.OVERHEAD);
        Map<Pipeline, List<Measurement>> results = Rounds.measure(pipelines, setup.runs());
        Rounds.print(PrimaryKeyPipelines.sections(pk, setup.parallelisms()), results, System.out);
        System.out.println();
        PrimaryKeyPipelines.printChangelogCost(results, System.out);
        System.out.println();
        System.out.println(pk.writeAmplificationAndPeakHeap());
    }

    /**
     * The deletion-vector issue's pipelines: streaming upserts over rows / 4 keys into tables with
     * and without vectors, full and filtered scans of each, their ratios, and freshness.
     */
    private static void deletionVectors(Setup setup) throws Exception {
        int keyMultiple = setup.parallelisms().stream().reduce(1, Benchmarks::lcm);
        PrimaryKeyBenchmark pk =
                new PrimaryKeyBenchmark(
                        setup.rows(), setup.warehouse(), setup.sizes(), keyMultiple);
        long filtered = DeletionVectorPipelines.filterRows(pk);
        System.out.printf(
                "Deletion-vector benchmarks: %,d streaming upserts of 8 columns over %,d keys, 4"
                        + " buckets, %s; the filter%s selects %,d rows (%.2f%%)%n",
                setup.rows(),
                pk.keys(),
                setup.describe(),
                DeletionVectorPipelines.FILTER,
                filtered,
                100.0 * filtered / pk.keys());
        if (!setup.cold()) {
            PrimaryKeyBenchmark warmup =
                    new PrimaryKeyBenchmark(
                            Math.min(setup.rows(), 400_000),
                            setup.warehouse().resolve("warmup"),
                            setup.sizes(),
                            keyMultiple);
            Rounds.warmUp(
                    setup.only(
                            DeletionVectorPipelines.of(
                                    warmup, setup.parallelisms(), setup.paimon()),
                            DeletionVectorPipelines.OVERHEAD));
        }
        List<Pipeline> pipelines =
                setup.only(
                        DeletionVectorPipelines.of(pk, setup.parallelisms(), setup.paimon()),
                        DeletionVectorPipelines.OVERHEAD);
        Map<Pipeline, List<Measurement>> results =
                Rounds.measure(
                        pipelines,
                        setup.runs(),
                        p -> DeletionVectorPipelines.isRead(p) ? setup.scanRepeats() : 1);
        Rounds.print(
                DeletionVectorPipelines.sections(pk, setup.parallelisms()), results, System.out);
        DeletionVectorPipelines.printRatios(results, System.out);
        DeletionVectorPipelines.printFreshness(pk, setup.warehouse(), pipelines, System.out);
    }

    /**
     * The lookup-join issue's figures: throughput of lookup joins of {@code rows} facts against
     * {@code dimKeys} keys ({@link LookupJoinPipelines}), then start-up, memory and freshness
     * ({@link LookupStreamBenchmarks}) against a table of {@code startKeys} keys. A system whose
     * planner refuses the join is reported and left out. An {@code --only} text that names some of
     * {@code start-up}, {@code memory} and {@code freshness} (e.g. {@code start-up,memory}) runs
     * those parts alone; other texts keep the throughput pipelines whose name holds them, and skip
     * the other parts.
     */
    private static void lookupJoin(Setup setup, long dimKeys, long startKeys) throws Exception {
        int keyMultiple = setup.parallelisms().stream().reduce(1, Benchmarks::lcm);
        LookupJoinBenchmark bench =
                new LookupJoinBenchmark(
                        setup.rows(), dimKeys, keyMultiple, setup.warehouse(), setup.sizes());
        System.out.printf(
                "Lookup-join benchmarks: %,d facts against %,d keys in 4 buckets, %s%n",
                setup.rows(), dimKeys, setup.describe());
        int writers = Collections.max(setup.parallelisms());
        List<String> systems = new ArrayList<>();
        for (String system : setup.paimon() ? List.of("tarn", "paimon") : List.of("tarn")) {
            long t0 = System.nanoTime();
            bench.writeDimension(system, writers);
            System.out.printf(
                    "  %s: dimension of %,d keys written in %.1f s%n",
                    system, dimKeys, (System.nanoTime() - t0) / 1e9);
            java.util.Optional<String> refusal = bench.refusal(system);
            if (refusal.isPresent()) {
                System.out.printf("  %s: not measured, %s%n", system, refusal.get());
            } else {
                systems.add(system);
            }
        }
        List<String> streamSections = List.of("start-up", "memory", "freshness");
        if (setup.only() == null || streamSections.stream().noneMatch(setup.only()::contains)) {
            lookupThroughput(setup, bench, systems, keyMultiple);
        }
        LookupJoinBenchmark start =
                new LookupJoinBenchmark(
                        "dim_start",
                        setup.rows(),
                        startKeys,
                        lcm(keyMultiple, 2),
                        setup.warehouse(),
                        setup.sizes());
        new LookupStreamBenchmarks(start, setup.warehouse(), systems, System.out)
                .run(
                        setup.runs(),
                        streamSections.stream()
                                .filter(s -> setup.only() == null || setup.only().contains(s))
                                .toList());
    }

    /** The throughput pipelines of {@link LookupJoinPipelines}: warm-up, rounds, report. */
    private static void lookupThroughput(
            Setup setup, LookupJoinBenchmark bench, List<String> lakes, int keyMultiple)
            throws Exception {
        List<String> systems = new ArrayList<>(lakes);
        systems.add(LookupJoinBenchmark.ARRAY);
        if (!setup.cold()) {
            LookupJoinBenchmark warmup =
                    new LookupJoinBenchmark(
                            Math.min(setup.rows(), 500_000),
                            bench.dimKeys(),
                            keyMultiple,
                            setup.warehouse(),
                            setup.sizes());
            Rounds.warmUp(
                    setup.only(LookupJoinPipelines.of(warmup, setup.parallelisms(), systems), ""));
        }
        List<Pipeline> pipelines =
                setup.only(LookupJoinPipelines.of(bench, setup.parallelisms(), systems), "");
        Map<Pipeline, List<Measurement>> results = Rounds.measure(pipelines, setup.runs());
        Rounds.print(
                LookupJoinPipelines.sections(bench, setup.parallelisms()), results, System.out);
        LookupJoinPipelines.printRatios(bench, results, System.out);
    }

    private static int lcm(int a, int b) {
        int gcd = a;
        for (int r = b; r != 0; ) {
            int t = gcd % r;
            gcd = r;
            r = t;
        }
        return a / gcd * b;
    }

    private Benchmarks() {}
}
