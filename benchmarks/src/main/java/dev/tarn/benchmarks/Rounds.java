package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Runs pipelines in rounds, each round every pipeline once, in order, and prints a table per
 * section of the report. Rounds, not one pipeline after another: drift of the machine (JIT, caches,
 * other load) then spreads over every pipeline instead of favouring the ones measured last.
 */
final class Rounds {

    private Rounds() {}

    /** The parallelisms, highest first: writes at the lowest then run last, before the reads. */
    static List<Integer> highestFirst(List<Integer> parallelisms) {
        List<Integer> sorted = new ArrayList<>(parallelisms);
        sorted.sort(Collections.reverseOrder());
        return sorted;
    }

    /** Runs and checks every pipeline once, unmeasured. */
    static void warmUp(List<Pipeline> pipelines) throws Exception {
        for (Pipeline pipeline : pipelines) {
            pipeline.warmUp();
        }
    }

    /** Each pipeline's measurements, one per round, in the order of {@code pipelines}. */
    static Map<Pipeline, List<Measurement>> measure(List<Pipeline> pipelines, int runs)
            throws Exception {
        return measure(pipelines, runs, p -> 1);
    }

    /**
     * Each pipeline's measurements, {@code repeats} of it per round (each run of it in a round
     * right after the one before), in the order of {@code pipelines}.
     */
    static Map<Pipeline, List<Measurement>> measure(
            List<Pipeline> pipelines, int runs, ToIntFunction<Pipeline> repeats) throws Exception {
        Map<Pipeline, List<Measurement>> results = new LinkedHashMap<>();
        for (int round = 1; round <= runs; round++) {
            System.out.println("Round " + round + " of " + runs);
            for (Pipeline pipeline : pipelines) {
                List<Measurement> measured =
                        results.computeIfAbsent(pipeline, p -> new ArrayList<>());
                for (int i = repeats.applyAsInt(pipeline); i > 0; i--) {
                    measured.add(pipeline.measure());
                }
            }
        }
        return results;
    }

    /** A table per section, in the order of {@code sections}, of the pipelines measured in it. */
    static void print(
            List<Section> sections, Map<Pipeline, List<Measurement>> results, PrintStream out) {
        for (Section section : sections) {
            Map<String, List<Measurement>> lines = new LinkedHashMap<>();
            results.forEach(
                    (pipeline, runs) -> {
                        if (pipeline.section().equals(section)) {
                            lines.put(pipeline.name(), runs);
                        }
                    });
            if (lines.isEmpty()) {
                continue;
            }
            out.printf("%n%s%n", section.title());
            Report report = new Report(section.rows());
            lines.forEach(report::add);
            report.print(out);
            if (lines.containsKey(section.overhead())) {
                report.printNetOfOverhead(out, section.overhead());
            }
        }
    }
}
