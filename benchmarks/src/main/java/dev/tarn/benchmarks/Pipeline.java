package dev.tarn.benchmarks;

/**
 * A pipeline the benchmark measures: one run of it, the check of its result that follows every run
 * (warm-ups included), and the section of the report its line is in.
 *
 * @param check throws {@link WrongResultException} if the last run's result is wrong
 */
record Pipeline(
        String name,
        Section section,
        Measurement.ThrowingRunnable run,
        Measurement.ThrowingRunnable check) {

    /** The first line of a section of writes: the rate of the source alone. */
    static final String CEILING = "datagen -> blackhole (ceiling)";

    /** Runs it once, unmeasured, and checks its result. */
    void warmUp() throws Exception {
        run.run();
        checkResult("a warm-up run");
    }

    /** Runs it once, measured, and checks its result. */
    Measurement measure() throws Exception {
        Measurement measurement = Measurement.of(name, run);
        checkResult("a measured run");
        return measurement;
    }

    private void checkResult(String which) throws Exception {
        try {
            check.run();
        } catch (WrongResultException e) {
            throw new WrongResultException(
                    String.format(
                            "Pipeline '%s' at parallelism %d gave a wrong result in %s: %s",
                            name, section.parallelism(), which, e.getMessage()));
        }
    }
}
