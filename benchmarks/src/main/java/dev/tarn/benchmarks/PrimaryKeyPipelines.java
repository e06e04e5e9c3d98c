package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The primary-key benchmark's pipelines in the order of a round, and the sections of its report.
 * The ceiling and the writes run at every parallelism, the highest first; the reads run at the
 * lowest, after its writes. One round: the ceilings, the batch writes, then reads of what they left
 * (one sorted run per bucket), then the streaming writes, then reads of what those left (level-0
 * files of the last checkpoints over compacted runs, merged on read), then the streaming writes
 * again with {@code changelog-producer} = {@code lookup}, whose CPU time over the plain streaming
 * write's is the changelog's cost ({@link #printChangelogCost}).
 */
final class PrimaryKeyPipelines {

    static final String OVERHEAD = "job overhead (empty pk table scan)";

    private static final String STREAMING = "(stream, 2s cp)";
    private static final String LOOKUP = "(stream, 2s cp, lookup)";

    private PrimaryKeyPipelines() {}

    static List<Pipeline> of(
            PrimaryKeyBenchmark bench, List<Integer> parallelisms, boolean paimon) {
        List<Integer> descending = Rounds.highestFirst(parallelisms);
        List<Pipeline> pipelines = new ArrayList<>();
        for (int p : descending) {
            pipelines.add(
                    new Pipeline(
                            Pipeline.CEILING,
                            writes(bench, p),
                            () -> bench.blackhole(p),
                            bench::checkGenerated));
        }
        for (int p : descending) {
            addWrites(pipelines, bench, p, false, paimon);
        }
        int p = Collections.min(parallelisms);
        Section reads = reads(bench, p);
        pipelines.add(
                new Pipeline(
                        "tarn scan -> blackhole (after batch)",
                        reads,
                        () -> bench.scanTarn(p),
                        bench::checkScanned));
        pipelines.add(
                new Pipeline(
                        OVERHEAD,
                        reads,
                        () -> bench.scanEmptyTarn(p),
                        PrimaryKeyBenchmark::checkScannedNothing));
        pipelines.add(
                new Pipeline(
                        "tarn point lookup by key",
                        reads,
                        () -> bench.lookupTarn(p),
                        bench::checkLookup));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "paimon scan -> blackhole (after batch)",
                            reads,
                            () -> bench.scanPaimon(p),
                            bench::checkScanned));
            pipelines.add(
                    new Pipeline(
                            "paimon point lookup by key",
                            reads,
                            () -> bench.lookupPaimon(p),
                            bench::checkLookup));
        }
        for (int q : descending) {
            addWrites(pipelines, bench, q, true, paimon);
        }
        pipelines.add(
                new Pipeline(
                        "tarn scan -> blackhole (after stream)",
                        reads,
                        () -> bench.scanTarn(p),
                        bench::checkScanned));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "paimon scan -> blackhole (after stream)",
                            reads,
                            () -> bench.scanPaimon(p),
                            bench::checkScanned));
        }
        for (int q : descending) {
            addLookupWrites(pipelines, bench, q, paimon);
        }
        return pipelines;
    }

    private static void addLookupWrites(
            List<Pipeline> pipelines, PrimaryKeyBenchmark bench, int p, boolean paimon) {
        pipelines.add(
                new Pipeline(
                        "upserts -> tarn pk table " + LOOKUP,
                        writes(bench, p),
                        () -> bench.writeTarn(true, p, "lookup"),
                        () -> bench.checkTable("lake")));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "upserts -> paimon pk table " + LOOKUP,
                            writes(bench, p),
                            () -> bench.writePaimon(true, p, "lookup"),
                            () -> bench.checkTable("paimon")));
        }
    }

    /**
     * Per system and parallelism measured, the median CPU time of the streaming write with {@code
     * changelog-producer} = {@code lookup} over the same write with {@code none}.
     */
    static void printChangelogCost(Map<Pipeline, List<Measurement>> results, PrintStream out) {
        Map<String, Measurement> medians = new LinkedHashMap<>();
        results.forEach(
                (pipeline, runs) ->
                        medians.put(
                                pipeline.name() + "@" + pipeline.section().parallelism(),
                                Measurement.median(runs)));
        for (Map.Entry<String, Measurement> e : medians.entrySet()) {
            String name = e.getKey();
            if (!name.contains(LOOKUP)) {
                continue;
            }
            Measurement none = medians.get(name.replace(LOOKUP, STREAMING));
            if (none == null) {
                continue;
            }
            String[] at = name.split("@");
            out.printf(
                    "Changelog cost, %s at parallelism %s: CPU %.2f s with lookup over %.2f s"
                            + " with none = %.2fx%n",
                    at[0].substring("upserts -> ".length(), at[0].indexOf(" pk table")),
                    at[1],
                    e.getValue().cpuSeconds(),
                    none.cpuSeconds(),
                    e.getValue().cpuSeconds() / none.cpuSeconds());
        }
    }

    private static void addWrites(
            List<Pipeline> pipelines,
            PrimaryKeyBenchmark bench,
            int p,
            boolean streaming,
            boolean paimon) {
        String mode = streaming ? STREAMING : "(batch)";
        pipelines.add(
                new Pipeline(
                        "upserts -> tarn pk table " + mode,
                        writes(bench, p),
                        () -> bench.writeTarn(streaming, p, "none"),
                        () -> bench.checkTable("lake")));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "upserts -> paimon pk table " + mode,
                            writes(bench, p),
                            () -> bench.writePaimon(streaming, p, "none"),
                            () -> bench.checkTable("paimon")));
        }
    }

    /** A table of writes per parallelism, the lowest first, then the table of reads. */
    static List<Section> sections(PrimaryKeyBenchmark bench, List<Integer> parallelisms) {
        List<Section> sections = new ArrayList<>();
        for (int p : parallelisms.stream().sorted().toList()) {
            sections.add(writes(bench, p));
        }
        sections.add(reads(bench, Collections.min(parallelisms)));
        return sections;
    }

    private static Section writes(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Upserts, %,d rows over %,d keys, 4 buckets, parallelism %d:",
                        bench.rows(), bench.keys(), parallelism),
                parallelism,
                bench.rows(),
                null);
    }

    private static Section reads(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Reads of the %,d rows the upserts leave, parallelism %d:",
                        bench.keys(), parallelism),
                parallelism,
                bench.keys(),
                OVERHEAD);
    }
}
