package dev.tarn.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One run of a streaming-read benchmark: its figure, or why the stream fell short of one (the job
 * ended early, stalled, or the planner refused it). A system whose run fell short is not run again:
 * today's shortfall is tomorrow's too.
 *
 * @param value the figure; null if and only if the run fell short
 * @param shortfall why it fell short, or null
 */
record StreamRun<T>(@Nullable T value, @Nullable String shortfall) {

    StreamRun {
        if ((value == null) == (shortfall == null)) {
            throw new IllegalArgumentException(
                    "A stream run has a figure or a shortfall, not both or neither: "
                            + value
                            + ", "
                            + shortfall);
        }
    }

    static <T> StreamRun<T> of(T value) {
        return new StreamRun<>(value, null);
    }

    static <T> StreamRun<T> fellShort(String shortfall) {
        return new StreamRun<>(null, shortfall);
    }

    boolean fellShort() {
        return shortfall != null;
    }

    /**
     * Runs each of {@code pipelines} once unmeasured (if {@code warmUp}), then in {@code runs}
     * rounds, each round every pipeline once in order (so the machine's drift spreads over all of
     * them, as {@link Rounds} does); a pipeline that fell short is not run again.
     *
     * @return each pipeline's runs by name, in the order given
     * @throws WrongResultException naming the pipeline, if a run's result is wrong
     */
    static <T> Map<String, List<StreamRun<T>>> rounds(
            Map<String, Repeatable<T>> pipelines, boolean warmUp, int runs) throws Exception {
        Map<String, List<StreamRun<T>>> results = new LinkedHashMap<>();
        pipelines.keySet().forEach(name -> results.put(name, new ArrayList<>()));
        if (warmUp) {
            for (Map.Entry<String, Repeatable<T>> pipeline : pipelines.entrySet()) {
                System.out.println("Warm-up: " + pipeline.getKey());
                StreamRun<T> run = run(pipeline.getKey(), pipeline.getValue(), true);
                if (run.fellShort()) {
                    results.get(pipeline.getKey())
                            .add(fellShort(run.shortfall() + " (in the warm-up run)"));
                }
            }
        }
        for (int round = 1; round <= runs; round++) {
            System.out.println("Round " + round + " of " + runs);
            for (Map.Entry<String, Repeatable<T>> pipeline : pipelines.entrySet()) {
                List<StreamRun<T>> done = results.get(pipeline.getKey());
                if (shortfall(done) == null) {
                    done.add(run(pipeline.getKey(), pipeline.getValue(), false));
                }
            }
        }
        return results;
    }

    private static <T> StreamRun<T> run(String name, Repeatable<T> pipeline, boolean warmUp)
            throws Exception {
        try {
            return pipeline.run(warmUp);
        } catch (WrongResultException e) {
            throw new WrongResultException(
                    String.format(
                            "Pipeline '%s' gave a wrong result in %s: %s",
                            name, warmUp ? "a warm-up run" : "a measured run", e.getMessage()));
        }
    }

    /** The first shortfall of {@code runs}, or null if none fell short. */
    @Nullable
    static String shortfall(List<? extends StreamRun<?>> runs) {
        return runs.stream()
                .filter(StreamRun::fellShort)
                .map(StreamRun::shortfall)
                .findFirst()
                .orElse(null);
    }

    /** A run of a benchmark; {@code warmUp} when its figure is thrown away. */
    interface Repeatable<T> {
        StreamRun<T> run(boolean warmUp) throws Exception;
    }
}
