package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lookup-join issue's throughput pipelines ({@code --lookup-join}), in the order of a round,
 * the sections of their report and the ratios the issue aims at. At each parallelism, highest
 * first: the ceiling (the facts into the sink without the join), then per system the inner join
 * with its defaults, the inner join with Flink's {@code LOOKUP('shuffle'='true')} hint and the left
 * join, each checked against the join the generator implies. With {@link LookupJoinBenchmark#ARRAY}
 * among the systems, the same three joins against a dimension held in an array indexed by id
 * ({@link ArrayDimensionFactory}): Flink's lookup join with a free lookup, the floor of what a join
 * costs in this job whatever the lookup source.
 */
final class LookupJoinPipelines {

    private LookupJoinPipelines() {}

    static List<LookupJoinBenchmark.Variant> variants(List<String> systems) {
        List<LookupJoinBenchmark.Variant> variants = new ArrayList<>();
        for (String system : systems) {
            variants.add(new LookupJoinBenchmark.Variant(system, false, false));
            variants.add(new LookupJoinBenchmark.Variant(system, false, true));
            variants.add(new LookupJoinBenchmark.Variant(system, true, false));
        }
        return variants;
    }

    /** How the report names a variant's line. */
    static String name(LookupJoinBenchmark.Variant variant) {
        return "facts -> " + variant.label();
    }

    /**
     * @param systems the systems whose planner accepts the join ({@link
     *     LookupJoinBenchmark#refusal}), in the order measured
     */
    static List<Pipeline> of(
            LookupJoinBenchmark bench, List<Integer> parallelisms, List<String> systems) {
        List<Pipeline> pipelines = new ArrayList<>();
        for (int p : Rounds.highestFirst(parallelisms)) {
            Section section = section(bench, p);
            pipelines.add(
                    new Pipeline(
                            Pipeline.CEILING,
                            section,
                            () -> bench.runCeiling(p),
                            bench::checkCeiling));
            for (LookupJoinBenchmark.Variant v : variants(systems)) {
                pipelines.add(
                        new Pipeline(
                                name(v),
                                section,
                                () -> bench.runJoin(v, p),
                                () -> bench.checkJoin(v.left())));
            }
        }
        return pipelines;
    }

    /** One per parallelism, the lowest first. */
    static List<Section> sections(LookupJoinBenchmark bench, List<Integer> parallelisms) {
        return parallelisms.stream().sorted().map(p -> section(bench, p)).toList();
    }

    private static Section section(LookupJoinBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Lookup joins of %,d facts (ids uniform over 1..%,d) against %,d keys in 4"
                                + " buckets, parallelism %d (rates per fact):",
                        bench.facts(), bench.factKeys(), bench.dimKeys(), parallelism),
                parallelism,
                bench.facts(),
                null);
    }

    /**
     * Per parallelism measured, the issue's figures from the medians, each where both of its lines
     * were measured: Tarn's facts per second over Paimon's (target at least 3x), and each join's
     * CPU-seconds per million facts over the ceiling's.
     */
    static void printRatios(
            LookupJoinBenchmark bench, Map<Pipeline, List<Measurement>> results, PrintStream out) {
        Map<String, Measurement> medians = new HashMap<>();
        List<Integer> parallelisms = new ArrayList<>();
        results.forEach(
                (pipeline, runs) -> {
                    int p = pipeline.section().parallelism();
                    medians.put(pipeline.name() + "@" + p, Measurement.median(runs));
                    if (!parallelisms.contains(p)) {
                        parallelisms.add(p);
                    }
                });
        for (int p : parallelisms.stream().sorted().toList()) {
            if (medians.get(name(variants(List.of("tarn")).get(0)) + "@" + p) == null) {
                continue;
            }
            out.printf("%nLookup-join ratios at parallelism %d (medians):%n", p);
            Measurement ceiling = medians.get(Pipeline.CEILING + "@" + p);
            for (LookupJoinBenchmark.Variant variant :
                    variants(List.of("tarn", LookupJoinBenchmark.ARRAY))) {
                Measurement ours = medians.get(name(variant) + "@" + p);
                LookupJoinBenchmark.Variant paimonVariant =
                        new LookupJoinBenchmark.Variant(
                                "paimon", variant.left(), variant.shuffle());
                Measurement theirs = medians.get(name(paimonVariant) + "@" + p);
                if (ours == null || theirs == null) {
                    continue;
                }
                out.printf(
                        "  %s over %s: %,.0f facts/s against %,.0f = %.2fx%s%n",
                        variant.label(),
                        paimonVariant.label(),
                        ours.rowsPerSecond(bench.facts()),
                        theirs.rowsPerSecond(bench.facts()),
                        theirs.seconds() / ours.seconds(),
                        variant.system().equals("tarn")
                                ? " (target >= 3x)"
                                : " (a free lookup: the most any lookup source reaches)");
                if (ceiling != null) {
                    out.printf(
                            "    join CPU over the ceiling: %.3f against %.3f CPU-s per million"
                                    + " facts%n",
                            ours.cpuSecondsPerMillionRows(bench.facts())
                                    - ceiling.cpuSecondsPerMillionRows(bench.facts()),
                            theirs.cpuSecondsPerMillionRows(bench.facts())
                                    - ceiling.cpuSecondsPerMillionRows(bench.facts()));
                }
            }
        }
    }
}
