package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.annotation.Nullable;

/**
 * The streaming-read issue's figures ({@code --streaming-read}), for Tarn and, with {@code
 * --paimon}, Apache Paimon, each system running the same SQL with the same options: freshness
 * ({@link FreshnessBenchmark}), file-system requests of an idle reader ({@link
 * IdleRequestsBenchmark}) and throughput of a full-then-changes read ({@link
 * StreamingThroughputBenchmark}). Medians of {@code runs} rounds after a warm-up (none for the idle
 * reader, which waits, not computes). A system whose stream falls short (ends early, stalls, is
 * refused) gets a line saying so instead of figures.
 */
final class StreamingReadBenchmarks {

    private final long rows;
    private final int runs;
    private final boolean paimon;
    private final TableSizes sizes;
    private final Path warehouse;
    @Nullable private final String only;
    private final PrintStream out = System.out;

    /**
     * @param only with a text, the sections (freshness, idle, throughput) and pipelines whose name
     *     holds it; null for all
     */
    StreamingReadBenchmarks(
            long rows,
            int runs,
            boolean paimon,
            TableSizes sizes,
            Path warehouse,
            @Nullable String only) {
        if (rows < 4 || runs < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid --rows %d or --runs %d for --streaming-read: the read needs"
                                    + " at least 4 rows (a key per 4 upserts) and a run",
                            rows, runs));
        }
        this.rows = rows;
        this.runs = runs;
        this.paimon = paimon;
        this.sizes = sizes;
        this.warehouse = warehouse;
        this.only = only;
    }

    /** Whether {@code --only} keeps the section or pipeline of {@code names}. */
    private boolean kept(String... names) {
        if (only == null) {
            return true;
        }
        for (String name : names) {
            if (name.contains(only)) {
                return true;
            }
        }
        return false;
    }

    void run() throws Exception {
        out.printf("Streaming-read benchmarks, %d runs each after a warm-up%n", runs);
        out.println("Warehouse: " + warehouse.toUri());
        List<LakeSystem> systems = systems(warehouse, "file://");
        if (kept("freshness")) {
            freshness(systems);
        }
        if (kept("idle")) {
            idle();
        }
        throughput(systems);
    }

    private List<LakeSystem> systems(Path root, String scheme) throws Exception {
        List<LakeSystem> systems = new ArrayList<>();
        systems.add(new TarnSystem(scheme + root.resolve("tarn").toAbsolutePath()));
        if (paimon) {
            systems.add(LakeSystem.paimon(scheme + root.resolve("paimon").toAbsolutePath()));
        }
        return systems;
    }

    private void freshness(List<LakeSystem> systems) throws Exception {
        Map<String, StreamRun.Repeatable<FreshnessBenchmark.Freshness>> pipelines =
                new LinkedHashMap<>();
        for (LakeSystem system : systems) {
            pipelines.put(system.name() + " freshness", new FreshnessBenchmark(system)::run);
        }
        Map<String, List<StreamRun<FreshnessBenchmark.Freshness>>> results =
                StreamRun.rounds(pipelines, true, runs);
        out.printf(
                "%nFreshness, default options: publish of a commit (the Java API's commit call"
                        + " returned) -> its first row at the sink; %d commits of %d rows, %d-%d"
                        + " ms apart, parallelism 1:%n",
                FreshnessBenchmark.COMMITS,
                FreshnessBenchmark.ROWS_PER_COMMIT,
                FreshnessBenchmark.MIN_GAP_MILLIS,
                FreshnessBenchmark.MAX_GAP_MILLIS);
        out.printf("%-20s %10s %10s %10s%n", "pipeline", "p50 s", "p99 s", "max s");
        results.forEach(
                (name, runs) -> {
                    String shortfall = StreamRun.shortfall(runs);
                    if (shortfall != null) {
                        out.printf("%-20s %s%n", name, shortfall);
                        return;
                    }
                    out.printf(
                            "%-20s %10.3f %10.3f %10.3f%n",
                            name,
                            median(runs, FreshnessBenchmark.Freshness::p50),
                            median(runs, FreshnessBenchmark.Freshness::p99),
                            median(runs, FreshnessBenchmark.Freshness::max));
                });
    }

    private void idle() throws Exception {
        Path root = Files.createDirectories(warehouse.resolve("counted"));
        Map<String, StreamRun.Repeatable<IdleRequestsBenchmark.Idle>> pipelines =
                new LinkedHashMap<>();
        for (LakeSystem system : systems(root, CountingFileSystem.SCHEME + "://")) {
            IdleRequestsBenchmark bench =
                    new IdleRequestsBenchmark(
                            system, CountingFileSystem.watch(root.resolve(system.name())));
            pipelines.put(system.name() + " idle reader", warmUp -> bench.run());
        }
        Map<String, List<StreamRun<IdleRequestsBenchmark.Idle>>> results =
                StreamRun.rounds(pipelines, false, runs);
        out.printf(
                "%nIdle streaming reader, default options: file-system calls (open, create,"
                        + " exists, status, list, delete, rename, mkdirs) on its warehouse in %d s"
                        + " after it caught up (Paimon reaches this warehouse through its Flink"
                        + " file IO, as it does any scheme it has no file IO of its own for):%n",
                IdleRequestsBenchmark.IDLE.toSeconds());
        out.printf("%-20s %14s   %s%n", "pipeline", "requests/s", "calls of the middle run");
        results.forEach(
                (name, runs) -> {
                    String shortfall = StreamRun.shortfall(runs);
                    if (shortfall != null) {
                        out.printf("%-20s %s%n", name, shortfall);
                        return;
                    }
                    List<IdleRequestsBenchmark.Idle> sorted =
                            runs.stream()
                                    .map(StreamRun::value)
                                    .sorted(
                                            Comparator.comparingDouble(
                                                    IdleRequestsBenchmark.Idle::requestsPerSecond))
                                    .toList();
                    double median = median(runs, IdleRequestsBenchmark.Idle::requestsPerSecond);
                    IdleRequestsBenchmark.Idle closest = sorted.get((sorted.size() - 1) / 2);
                    out.printf("%-20s %14.2f   %s%n", name, median, closest.calls());
                });
    }

    private void throughput(List<LakeSystem> systems) throws Exception {
        StreamingThroughputBenchmark bench = new StreamingThroughputBenchmark(rows, sizes);
        Map<String, StreamRun.Repeatable<Measurement>> pipelines = new LinkedHashMap<>();
        for (StreamingThroughputBenchmark.Kind kind : StreamingThroughputBenchmark.Kind.values()) {
            StreamingThroughputBenchmark.Expected expected = bench.expected(kind);
            for (LakeSystem system : systems) {
                String name = system.name() + " " + kind.description;
                if (!kept("throughput", name)) {
                    continue;
                }
                System.out.printf(
                        "Preparing the %s table of %s%n", kind.description, system.name());
                bench.prepare(system, kind);
                pipelines.put(name, warmUp -> bench.read(system, kind, expected));
            }
        }
        if (pipelines.isEmpty()) {
            return;
        }
        Map<String, List<StreamRun<Measurement>>> results = StreamRun.rounds(pipelines, true, runs);
        out.printf(
                "%nStreaming read, full phase then changes (%s), parallelism 1: %,d append rows"
                        + " (half in snapshot 1, the rest in %d commits); %,d upserts over %,d keys,"
                        + " 4 buckets (version 1 of each key in snapshot 1, versions 2-4 in %d"
                        + " commits); rates are of the rows written:%n",
                StreamingThroughputBenchmark.READ_OPTIONS.trim(),
                rows,
                StreamingThroughputBenchmark.LATER_COMMITS,
                rows,
                bench.keys(),
                StreamingThroughputBenchmark.LATER_COMMITS);
        out.printf("%-28s %10s %14s %14s%n", "pipeline", "seconds", "rows/s", "CPU-s/M rows");
        results.forEach(
                (name, runs) -> {
                    String shortfall = StreamRun.shortfall(runs);
                    if (shortfall != null) {
                        out.printf("%-28s %s%n", name, shortfall);
                        return;
                    }
                    Measurement median =
                            Measurement.median(runs.stream().map(StreamRun::value).toList());
                    out.printf(
                            "%-28s %10.2f %,14.0f %14.3f%n",
                            name,
                            median.seconds(),
                            median.rowsPerSecond(rows),
                            median.cpuSecondsPerMillionRows(rows));
                });
    }

    private static <T> double median(List<StreamRun<T>> runs, ToDoubleFunction<T> of) {
        double[] values = runs.stream().mapToDouble(run -> of.applyAsDouble(run.value())).toArray();
        java.util.Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
