package dev.tarn.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Wall time and process CPU time of one pipeline run, and medians over several runs. */
record Measurement(double seconds, double cpuSeconds) {

    /** Whether each run prints its CPU time by thread kind ({@code --cpu-breakdown}). */
    static volatile boolean printBreakdown;

    static Measurement of(String name, ThrowingRunnable run) throws Exception {
        Map<String, Long> threads0 = printBreakdown ? ThreadCpu.snapshot() : Map.of();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        run.run();
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        if (printBreakdown) {
            Map<String, Double> kinds = ThreadCpu.between(threads0, ThreadCpu.snapshot());
            // The job's task threads end with it, and /proc no longer lists them: their time is
            // what the threads still alive do not account for.
            double alive = kinds.values().stream().mapToDouble(Double::doubleValue).sum();
            kinds.put("ended threads", Math.max(0, (cpu1 - cpu0) / 1e9 - alive));
            System.out.printf(
                    "  %-42s %.2f s, CPU %.2f s: %s%n",
                    name, (t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9, kinds);
        }
        return new Measurement((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9);
    }

    /** CPU time of this process so far, in nanoseconds. */
    static long processCpuNanos() {
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
