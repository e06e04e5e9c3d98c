package dev.tarn.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of this process's threads by kind (task threads, JIT compilers, garbage collection, the
 * rest), read from Linux's {@code /proc/self/task}: the JVM's own threads (compilers, GC) are
 * invisible to {@code ThreadMXBean}, yet count in a pipeline's process CPU time. A diagnostic for
 * {@code --cpu-breakdown}; on systems without {@code /proc} every snapshot is empty. A thread that
 * ended between two snapshots (a finished job's task threads) is in neither.
 */
final class ThreadCpu {

    private static final Path TASKS = Path.of("/proc/self/task");

    /** Clock ticks per second of {@code /proc}'s times: 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private ThreadCpu() {}

    /** CPU ticks so far per thread id, each keyed by "kind/tid". */
    static Map<String, Long> snapshot() {
        Map<String, Long> ticks = new TreeMap<>();
        if (!Files.isDirectory(TASKS)) {
            return ticks;
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(task -> read(task, ticks));
        } catch (IOException e) {
            // Threads come and go while we list them; a partial snapshot is still a snapshot.
        }
        return ticks;
    }

    /** CPU seconds per thread kind between two snapshots. */
    static Map<String, Double> between(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Double> seconds = new TreeMap<>();
        after.forEach(
                (key, ticks) -> {
                    long delta = ticks - before.getOrDefault(key, 0L);
                    if (delta > 0) {
                        seconds.merge(
                                key.substring(0, key.lastIndexOf('/')),
                                delta / TICKS_PER_SECOND,
                                Double::sum);
                    }
                });
        return seconds;
    }

    private static void read(Path task, Map<String, Long> ticks) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // pid (comm) state ... : comm may hold spaces and parentheses, so split at the last
            // ')'.
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            String comm = stat.substring(open + 1, close);
            String[] fields = stat.substring(close + 2).split(" ");
            // Fields after comm start at field 3 (state); utime and stime are fields 14 and 15.
            long cpu = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            ticks.put(kind(comm) + "/" + task.getFileName(), cpu);
        } catch (IOException | RuntimeException e) {
            // The thread ended between the listing and the read.
        }
    }

    private static String kind(String comm) {
        if (comm.startsWith("C2 Compiler") || comm.startsWith("C1 Compiler")) {
            return "jit";
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")) {
            return "gc+vm";
        }
        if (comm.startsWith("Source:") || comm.contains("Writer") || comm.contains("Tarn")) {
            return "tasks";
        }
        return "other";
    }
}
