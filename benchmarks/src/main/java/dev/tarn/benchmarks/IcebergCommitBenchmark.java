package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What Iceberg metadata costs a commit ({@code metadata.iceberg.storage} = {@code table-location}
 * over {@code disabled}), for Tarn and, with {@code --paimon}, Apache Paimon 1.3 side by side:
 * latency and CPU time of the committing thread, p50 and p99, of an append commit of one small file
 * after {@value #HISTORY} snapshots (a stream committing every second), and of a full compaction's
 * commit. Then, for information, the full scan rate of an append table of {@code --rows} rows by
 * Iceberg's reader in Spark against Tarn's own scan ({@link IcebergScanRates}). A system that
 * refuses the option prints {@code n/a (option not available)} for it. Usage: {@code Benchmarks
 * --iceberg-commit [--runs N] [--rows R] [--compactions C] [--interval-ms I] [--warm-rounds W]
 * [--paimon]}, N measured append commits (100 by default), R rows (5,000,000), C measured
 * compactions (10), I milliseconds from one round of measured commits to the next (0 by default:
 * back to back; 1000 is a stream committing every second), W more rounds of Tarn's measurement in
 * the same JVM, on new tables, as {@code tarn+1}, {@code tarn+2}, ... (0): each finds the JIT
 * warmer. The tables with the option on and off are committed in lockstep. Last, the floor ({@link
 * IcebergFileFloor}).
 */
final class IcebergCommitBenchmark {

    /** Snapshots before the measured appends: a table that has been streaming for a while. */
    static final int HISTORY = 100;

    /** Measured compaction commits by default, each after {@value #FILES_PER_COMPACTION} files. */
    static final int COMPACTIONS = 10;

    private static final int FILES_PER_COMPACTION = 4;

    static final String NOT_AVAILABLE = "n/a (option not available)";

    /**
     * The arguments of {@code --iceberg-commit}; {@code intervalMillis} is the time from the start
     * of one round of measured commits (one commit of each table) to the next, 0 for back to back.
     */
    record Settings(
            int runs,
            long rows,
            boolean paimon,
            int compactions,
            long intervalMillis,
            int warmRounds) {

        Settings(int runs, long rows, boolean paimon, int compactions) {
            this(runs, rows, paimon, compactions, 0, 0);
        }

        Settings(int runs, long rows, boolean paimon, int compactions, long intervalMillis) {
            this(runs, rows, paimon, compactions, intervalMillis, 0);
        }

        static Settings parse(Map<String, String> flags) {
            return new Settings(
                    (int) positive(flags, "runs", 100, Integer.MAX_VALUE),
                    positive(flags, "rows", 5_000_000, Long.MAX_VALUE),
                    flags.containsKey("paimon"),
                    (int) positive(flags, "compactions", COMPACTIONS, 100_000),
                    zeroOrPositive(flags, "interval-ms", 3_600_000),
                    (int) zeroOrPositive(flags, "warm-rounds", 100));
        }

        /** Flag {@code flag}: 0 if absent or 0, else as {@link #positive} with default 0. */
        private static long zeroOrPositive(Map<String, String> flags, String flag, long max) {
            String value = flags.get(flag);
            return value == null || value.trim().equals("0") ? 0 : positive(flags, flag, 0, max);
        }

        private static long positive(
                Map<String, String> flags, String flag, long defaultValue, long max) {
            String value = flags.get(flag);
            if (value == null) {
                return defaultValue;
            }
            long parsed;
            try {
                parsed = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                parsed = 0;
            }
            if (parsed < 1 || parsed > max) {
                throw new IllegalArgumentException(
                        "Invalid --"
                                + flag
                                + " "
                                + value
                                + " of --iceberg-commit: expected a positive integer");
            }
            return parsed;
        }
    }

    /** Latency and thread CPU of one kind of commit, in milliseconds, sorted. */
    record Costs(List<Double> millis, List<Double> cpuMillis) {
        static double p50(List<Double> sorted) {
            return sorted.get(sorted.size() / 2);
        }

        static double p99(List<Double> sorted) {
            return sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
        }
    }

    private IcebergCommitBenchmark() {}

    static void run(Settings settings, Path warehouse, PrintStream out) throws Exception {
        List<IcebergCommitTarget.Factory> systems = new ArrayList<>();
        systems.add(new TarnIcebergCommits());
        for (int w = 1; w <= settings.warmRounds(); w++) {
            systems.add(new TarnIcebergCommits.Again("tarn+" + w));
        }
        if (settings.paimon()) {
            systems.add(paimon());
        }
        systems.add(new IcebergFileFloor(dir(warehouse, systems.get(0), true)));
        commitCosts(
                systems,
                settings.runs(),
                settings.compactions(),
                settings.intervalMillis(),
                warehouse,
                out);
        IcebergScanRates.print(settings.rows(), warehouse, out);
    }

    /** Prints each system's commit costs with the option off and on, and their ratios. */
    static void commitCosts(
            List<IcebergCommitTarget.Factory> systems,
            int runs,
            int compactions,
            long intervalMillis,
            Path warehouse,
            PrintStream out)
            throws Exception {
        out.printf(
                "Commit cost of Iceberg metadata: %d append commits of one file after %d"
                        + " snapshots, %d full compaction commits, %s; milliseconds%n",
                runs,
                HISTORY,
                compactions,
                intervalMillis == 0 ? "back to back" : "a round every " + intervalMillis + " ms");
        out.printf(
                "%-8s %-11s %-8s %10s %10s %10s %10s%n",
                "system", "commit", "iceberg", "p50", "p99", "cpu p50", "cpu p99");
        for (IcebergCommitTarget.Factory system : systems) {
            Map<Boolean, Map<String, Costs>> costs =
                    measure(system, runs, compactions, intervalMillis, warehouse);
            Map<String, Costs> off = costs.get(false);
            Map<String, Costs> on = costs.get(true);
            for (String kind : List.of("append", "compaction")) {
                row(out, system.name(), kind, "off", off.get(kind));
                if (on == null) {
                    out.printf("%-8s %-11s %-8s %s%n", system.name(), kind, "on", NOT_AVAILABLE);
                    out.printf(
                            "%-8s %-11s %-8s %s%n", system.name(), kind, "on/off", NOT_AVAILABLE);
                } else {
                    row(out, system.name(), kind, "on", on.get(kind));
                    Costs a = on.get(kind);
                    Costs b = off.get(kind);
                    out.printf(
                            "%-8s %-11s %-8s %9.2fx %9.2fx %9.2fx %9.2fx%n",
                            system.name(),
                            kind,
                            "on/off",
                            Costs.p50(a.millis()) / Costs.p50(b.millis()),
                            Costs.p99(a.millis()) / Costs.p99(b.millis()),
                            Costs.p50(a.cpuMillis()) / Costs.p50(b.cpuMillis()),
                            Costs.p99(a.cpuMillis()) / Costs.p99(b.cpuMillis()));
                }
            }
            if (system instanceof IcebergFileFloor) {
                out.printf(
                        "(floor: Tarn's commit without the option, \"on\" followed by the file"
                                + " writes alone of an Iceberg step, sized as Tarn's, nothing"
                                + " encoded)%n");
            }
        }
    }

    private static void row(PrintStream out, String system, String kind, String mode, Costs c) {
        out.printf(
                "%-8s %-11s %-8s %10.2f %10.2f %10.2f %10.2f%n",
                system,
                kind,
                mode,
                Costs.p50(c.millis()),
                Costs.p99(c.millis()),
                Costs.p50(c.cpuMillis()),
                Costs.p99(c.cpuMillis()));
    }

    /**
     * The costs of {@code system}'s append and compaction commits, by kind, with the option off
     * ({@code false}) and on ({@code true}; absent if the system refuses it). The two tables are
     * committed in lockstep, each commit of one followed by the same commit of the other, which of
     * them goes first alternating, so that the JIT's warm-up and the file system's background work
     * weigh on both alike.
     */
    private static Map<Boolean, Map<String, Costs>> measure(
            IcebergCommitTarget.Factory system,
            int runs,
            int compactions,
            long intervalMillis,
            Path warehouse)
            throws Exception {
        List<IcebergCommitTarget> targets = new ArrayList<>();
        try {
            targets.add(system.open(Files.createDirectories(dir(warehouse, system, false)), false));
            try {
                targets.add(
                        system.open(Files.createDirectories(dir(warehouse, system, true)), true));
            } catch (IcebergCommitTarget.OptionNotAvailableException e) {
                // Measured off alone.
            }
            for (int i = 0; i < HISTORY; i++) {
                for (IcebergCommitTarget target : targets) {
                    target.prepareAppend().run();
                }
            }
            List<Costs> appends = new ArrayList<>();
            List<Costs> compactionCosts = new ArrayList<>();
            for (int t = 0; t < targets.size(); t++) {
                appends.add(new Costs(new ArrayList<>(), new ArrayList<>()));
                compactionCosts.add(new Costs(new ArrayList<>(), new ArrayList<>()));
            }
            long round = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                round = pace(round, intervalMillis);
                for (int t : order(i, targets.size())) {
                    time(targets.get(t).prepareAppend(), appends.get(t));
                }
            }
            for (int i = 0; i < compactions; i++) {
                round = pace(round, intervalMillis);
                for (int t : order(i, targets.size())) {
                    for (int f = 0; f < FILES_PER_COMPACTION; f++) {
                        targets.get(t).prepareAppend().run();
                    }
                    time(targets.get(t).prepareCompaction(), compactionCosts.get(t));
                }
            }
            Map<Boolean, Map<String, Costs>> byMode = new HashMap<>();
            for (int t = 0; t < targets.size(); t++) {
                for (Costs c : List.of(appends.get(t), compactionCosts.get(t))) {
                    Collections.sort(c.millis());
                    Collections.sort(c.cpuMillis());
                }
                byMode.put(
                        t == 1,
                        Map.of("append", appends.get(t), "compaction", compactionCosts.get(t)));
            }
            return byMode;
        } finally {
            for (IcebergCommitTarget target : targets) {
                target.close();
            }
        }
    }

    /**
     * Waits until {@code intervalMillis} after {@code previous} (a {@link System#nanoTime}), unless
     * that is past; returns when the next round starts.
     */
    static long pace(long previous, long intervalMillis) throws InterruptedException {
        if (intervalMillis == 0) {
            return System.nanoTime();
        }
        long wait = previous + intervalMillis * 1_000_000 - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        return System.nanoTime();
    }

    private static Path dir(Path warehouse, IcebergCommitTarget.Factory system, boolean iceberg) {
        return warehouse.resolve(system.name() + "-" + (iceberg ? "on" : "off"));
    }

    /** The order of the targets in round {@code i}: forwards in even rounds, backwards in odd. */
    private static List<Integer> order(int i, int targets) {
        List<Integer> order = new ArrayList<>();
        for (int t = 0; t < targets; t++) {
            order.add(i % 2 == 0 ? t : targets - 1 - t);
        }
        return order;
    }

    private static void time(IcebergCommitTarget.Publish publish, Costs costs) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        publish.run();
        costs.millis().add((System.nanoTime() - t0) / 1e6);
        costs.cpuMillis().add((threads.getCurrentThreadCpuTime() - cpu0) / 1e6);
    }

    /** Paimon's side, compiled and on the class path only with the paimon Maven profile. */
    private static IcebergCommitTarget.Factory paimon() throws Exception {
        Class<?> paimon;
        try {
            paimon = Class.forName("dev.tarn.benchmarks.paimon.PaimonIcebergCommits");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(
                    "--paimon needs Apache Paimon's classes: build and run the benchmarks with"
                            + " the paimon Maven profile (-Pbench,paimon)",
                    e);
        }
        return (IcebergCommitTarget.Factory) paimon.getConstructor().newInstance();
    }
}
