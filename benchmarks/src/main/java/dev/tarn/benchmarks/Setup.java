package dev.tarn.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.annotation.Nullable;

/**
 * What every benchmark of a run shares, read from the command line ({@link Benchmarks} lists the
 * flags): rows, rounds, parallelisms, the systems, table sizes, the pipelines kept and where the
 * tables live ({@code temporary}: a directory of the run's own, deleted when it succeeds, unless
 * {@code --warehouse} names one).
 */
record Setup(
        long rows,
        int runs,
        List<Integer> parallelisms,
        boolean paimon,
        TableSizes sizes,
        @Nullable String only,
        boolean cold,
        Path warehouse,
        boolean temporary,
        int scanRepeats) {

    private static final List<String> FLAGS =
            List.of(
                    "rows",
                    "runs",
                    "parallelism",
                    "paimon",
                    "defaults",
                    "only",
                    "cpu-breakdown",
                    "primary-key",
                    "deletion-vectors",
                    "commit-latency",
                    "s3-commit",
                    "iceberg-commit",
                    "streaming-read",
                    "cold",
                    "probe",
                    "schema-scan",
                    "lookup-join",
                    "lookup-keys",
                    "lookup-start-keys",
                    "warehouse",
                    "history",
                    "compactions",
                    "interval-ms",
                    "warm-rounds",
                    "scan-repeats");

    /** The setup the flags ask for; a table directory of its own unless {@code --warehouse}. */
    static Setup of(Map<String, String> flags) throws IOException {
        return new Setup(
                Long.parseLong(flags.getOrDefault("rows", "5000000")),
                Integer.parseInt(flags.getOrDefault("runs", "3")),
                parallelisms(
                        flags.getOrDefault(
                                "parallelism",
                                flags.containsKey("deletion-vectors") ? "2" : "1,2")),
                flags.containsKey("paimon"),
                new TableSizes(flags.containsKey("defaults")),
                flags.get("only"),
                flags.containsKey("cold"),
                flags.containsKey("warehouse")
                        ? Files.createDirectories(Path.of(flags.get("warehouse")))
                        : Files.createTempDirectory("tarn-bench"),
                !flags.containsKey("warehouse"),
                scanRepeats(flags.get("scan-repeats")));
    }

    /** {@code --scan-repeats R}: how often each scan runs in a round, 1 by default. */
    static int scanRepeats(@Nullable String value) {
        if (value == null) {
            return 1;
        }
        try {
            int repeats = Integer.parseInt(value.trim());
            if (repeats >= 1 && repeats <= 100) {
                return repeats;
            }
        } catch (NumberFormatException e) {
            // Refused below.
        }
        throw new IllegalArgumentException(
                "Invalid --scan-repeats " + value + ": expected an integer from 1 to 100");
    }

    /**
     * {@code --only TEXT}: the pipelines whose name holds it, and the reference lines; with {@code
     * --cold}, those pipelines alone, so the first is the first job of the JVM.
     */
    List<Pipeline> only(List<Pipeline> pipelines, String overhead) {
        List<Pipeline> kept = new ArrayList<>(pipelines);
        if (only != null) {
            kept.removeIf(
                    p ->
                            (cold
                                            || !p.name().equals(Pipeline.CEILING)
                                                    && !p.name().equals(overhead))
                                    && !p.name().contains(only));
        }
        return kept;
    }

    String describe() {
        return String.format(
                "parallelism %s, %s, %d runs each",
                parallelisms.stream().map(String::valueOf).collect(Collectors.joining(" and ")),
                sizes.describe(),
                runs);
    }

    /** {@code --parallelism 1,2}: distinct, positive, in the order given. */
    static List<Integer> parallelisms(String list) {
        List<Integer> parallelisms = new ArrayList<>();
        for (String item : list.split(",")) {
            int p;
            try {
                p = Integer.parseInt(item.trim());
            } catch (NumberFormatException e) {
                p = 0;
            }
            if (p < 1) {
                throw new IllegalArgumentException(
                        "Invalid --parallelism "
                                + list
                                + ": expected positive integers separated by commas, e.g. 1,2");
            }
            if (!parallelisms.contains(p)) {
                parallelisms.add(p);
            }
        }
        return parallelisms;
    }

    static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument: " + args[i]);
            }
            String key = args[i].substring(2);
            if (!FLAGS.contains(key)) {
                throw new IllegalArgumentException(
                        "Unknown flag --"
                                + key
                                + ": expected one of --"
                                + String.join(", --", FLAGS));
            }
            boolean hasValue = i + 1 < args.length && !args[i + 1].startsWith("--");
            flags.put(key, hasValue ? args[++i] : "true");
        }
        return flags;
    }
}
