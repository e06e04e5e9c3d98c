package dev.tarn.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** Wall time and process CPU time of one pipeline run, and medians over several runs. */
record Measurement(double seconds, double cpuSeconds) {

    static Measurement of(ThrowingRunnable run) throws Exception {
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        run.run();
        long t1 = System.nanoTime();
        long cpu1 = cpuNanos();
        return new Measurement((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static Measurement median(List<Measurement> runs) {
        List<Double> wall = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        runs.forEach(
                m -> {
                    wall.add(m.seconds);
                    cpu.add(m.cpuSeconds);
                });
        return new Measurement(
                median(wall.toArray(Double[]::new)), median(cpu.toArray(Double[]::new)));
    }

    private static double median(Double[] values) {
        java.util.Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    double rowsPerSecond(long rows) {
        return rows / seconds;
    }

    double cpuSecondsPerMillionRows(long rows) {
        return cpuSeconds / (rows / 1e6);
    }

    /** A pipeline run. */
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
