package dev.tarn.benchmarks;

import dev.tarn.format.lookup.LookupGetProbe;
import dev.tarn.format.lsm.sort.SortBufferProbe;
import dev.tarn.format.parquet.ParquetThroughputProbe;
import dev.tarn.format.parquet.ParquetWriteCpuProbe;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The probes of {@code --probe NAME}: one component of the format, on one thread, without Flink,
 * timed over rounds after a warm-up. Each checks its result and fails on a wrong one. The probe
 * classes live in the packages of the format they drive (inside this module), so they can reach
 * what the format keeps package-private.
 */
final class Probes {

    /** A probe's entry point. */
    @FunctionalInterface
    interface Body {
        void run(int rows, int runs, PrintStream out) throws Exception;
    }

    /** A probe and the sizes it runs at unless {@code --rows} and {@code --runs} say otherwise. */
    private record Probe(int defaultRows, int defaultRuns, Body body) {}

    private static final Map<String, Probe> ALL = new LinkedHashMap<>();

    static {
        ALL.put("parquet-throughput", new Probe(1_000_000, 3, ParquetThroughputProbe::run));
        ALL.put("parquet-write-cpu", new Probe(3_000_000, 5, ParquetWriteCpuProbe::run));
        ALL.put("sort-buffer", new Probe(1_000_000, 3, SortBufferProbe::run));
        ALL.put("lookup-get", new Probe(1_000_000, 5, LookupGetProbe::run));
        ALL.put("changelog-cost", new Probe(5_000_000, 3, ChangelogCostProbe::run));
        ALL.put("maintenance", new Probe(10_000, 3, MaintenanceProbe::run));
        ALL.put("schema-scan", new Probe(5_000_000, 5, SchemaScanProbe::run));
        ALL.put("filtered-scan", new Probe(5_000_000, 5, FilteredScanProbe::run));
        // --rows is the number of data files: 1,000 snapshots of 10 files each by default.
        ALL.put("expire-snapshots", new Probe(10_000, 1, ExpirationProbe::run));
    }

    private Probes() {}

    /** Runs probe {@code name} with the given sizes, or its own where they are null. */
    static void run(String name, @Nullable String rows, @Nullable String runs, PrintStream out)
            throws Exception {
        Probe probe = ALL.get(name);
        if (probe == null) {
            throw new IllegalArgumentException(
                    "Unknown probe '"
                            + name
                            + "' of --probe: expected one of "
                            + String.join(", ", ALL.keySet()));
        }
        probe.body.run(
                positive("--rows", rows, probe.defaultRows),
                positive("--runs", runs, probe.defaultRuns),
                out);
    }

    private static int positive(String flag, @Nullable String value, int defaultValue) {
        if (value == null) {
            return defaultValue;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            parsed = 0;
        }
        if (parsed < 1) {
            throw new IllegalArgumentException(
                    "Invalid " + flag + " " + value + " of --probe: expected a positive integer");
        }
        return parsed;
    }
}
