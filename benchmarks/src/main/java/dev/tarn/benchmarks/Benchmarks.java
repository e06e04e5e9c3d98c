package dev.tarn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * End-to-end throughput of Tarn pipelines on an embedded Flink at parallelism 1, each compared with
 * the same pipeline into Flink's blackhole sink (the ceiling) and, with {@code --paimon}, into
 * Apache Paimon. Prints medians of several runs: seconds, rows/s and CPU-seconds per million rows.
 * Usage: {@code Benchmarks [--rows N] [--runs R] [--paimon]}.
 */
public final class Benchmarks {

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = flags(args);
        long rows = Long.parseLong(flags.getOrDefault("rows", "5000000"));
        int runs = Integer.parseInt(flags.getOrDefault("runs", "3"));
        boolean paimon = flags.containsKey("paimon");
        Path warehouse = Files.createTempDirectory("tarn-bench");
        System.out.printf(
                "Tarn benchmarks: %,d rows of 8 columns, parallelism 1, %d runs each%n",
                rows, runs);
        System.out.println("Warehouse: " + warehouse.toUri());

        // Warm up the JIT and load the planner's classes, so the first measured run is not the
        // only one that pays for them.
        AppendBenchmark warmup =
                new AppendBenchmark(Math.min(rows, 500_000), warehouse.resolve("warmup"));
        warmup.blackhole();
        warmup.writeTarn();
        warmup.scanTarn();
        if (paimon) {
            warmup.writePaimon();
            warmup.scanPaimon();
        }
        AppendBenchmark append = new AppendBenchmark(rows, warehouse);
        Report report = new Report(rows);
        report.add("datagen -> blackhole (ceiling)", repeat(runs, append::blackhole));
        report.add("datagen -> tarn append table", repeat(runs, append::writeTarn));
        report.add("tarn full scan -> blackhole", repeat(runs, append::scanTarn));
        report.add("job overhead (scan of an empty table)", repeat(runs, append::scanEmptyTarn));
        report.add("tarn filter id BETWEEN 1000 AND 1999", repeat(runs, append::filterTarn));
        if (paimon) {
            report.add("datagen -> paimon append table", repeat(runs, append::writePaimon));
            report.add("paimon full scan -> blackhole", repeat(runs, append::scanPaimon));
            report.add(
                    "paimon filter id BETWEEN 1000 AND 1999", repeat(runs, append::filterPaimon));
        }
        report.print(System.out);
        report.printNetOfOverhead(System.out, "job overhead (scan of an empty table)");
        System.out.printf(
                "Selective filter reads %.2f%% of the table's data bytes (%,d of %,d).%n",
                100.0 * append.filterBytesRead() / append.tableBytes(),
                append.filterBytesRead(),
                append.tableBytes());
        System.exit(0);
    }

    private static List<Measurement> repeat(int runs, Measurement.ThrowingRunnable run)
            throws Exception {
        List<Measurement> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            results.add(Measurement.of(run));
        }
        return results;
    }

    static TableEnvironment batchEnv() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "1");
        return env;
    }

    private static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument: " + args[i]);
            }
            String key = args[i].substring(2);
            boolean hasValue = i + 1 < args.length && !args[i + 1].startsWith("--");
            flags.put(key, hasValue ? args[++i] : "true");
        }
        return flags;
    }

    private Benchmarks() {}
}
