package dev.tarn.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The append benchmark's pipelines in the order of a round, and the sections of its report. The
 * ceiling and the writes run at every parallelism, the highest first; each parallelism's full scans
 * follow its writes and read what those wrote; the filters and the job overhead run at the lowest
 * only.
 */
final class AppendPipelines {

    static final String OVERHEAD = "job overhead (scan of an empty table)";
    static final String FILTER = "tarn filter id BETWEEN 1000 AND 1999";

    private AppendPipelines() {}

    static List<Pipeline> of(AppendBenchmark bench, List<Integer> parallelisms, boolean paimon) {
        List<Pipeline> pipelines = new ArrayList<>();
        for (int p : Rounds.highestFirst(parallelisms)) {
            Section section = section(bench, p);
            pipelines.add(
                    new Pipeline(
                            Pipeline.CEILING,
                            section,
                            () -> bench.blackhole(p),
                            () -> AppendBenchmark.checkReceived(bench.rows())));
            pipelines.add(
                    new Pipeline(
                            "datagen -> tarn append table",
                            section,
                            () -> bench.writeTarn(p),
                            () -> bench.checkTable("lake")));
            if (paimon) {
                pipelines.add(
                        new Pipeline(
                                "datagen -> paimon append table",
                                section,
                                () -> bench.writePaimon(p),
                                () -> bench.checkTable("paimon")));
            }
            if (p != Collections.min(parallelisms)) {
                // The lowest parallelism's scans follow its writes below, with the other reads.
                scans(bench, p, section, paimon, pipelines);
            }
        }
        int p = Collections.min(parallelisms);
        Section reads = section(bench, p);
        scans(bench, p, reads, paimon, pipelines);
        pipelines.add(
                new Pipeline(
                        OVERHEAD,
                        reads,
                        () -> bench.scanEmptyTarn(p),
                        () -> AppendBenchmark.checkReceived(0)));
        pipelines.add(
                new Pipeline(
                        FILTER,
                        reads,
                        () -> bench.filterTarn(p),
                        () -> AppendBenchmark.checkReceived(bench.filterRows())));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "paimon filter id BETWEEN 1000 AND 1999",
                            reads,
                            () -> bench.filterPaimon(p),
                            () -> AppendBenchmark.checkReceived(bench.filterRows())));
        }
        for (String system : paimon ? List.of("tarn", "paimon") : List.of("tarn")) {
            pipelines.add(
                    new Pipeline(
                            system + " filter" + AppendBenchmark.VALUE_FILTER.replace(" WHERE", ""),
                            reads,
                            () -> bench.valueFilter(system.equals("tarn") ? "lake" : "paimon", p),
                            () -> AppendBenchmark.checkReceived(bench.valueFilterRows())));
        }
        return pipelines;
    }

    /** The floor under every scan: the rows from memory, nothing read or decoded. */
    private static final String REPLAY = "memory replay -> blackhole (floor of a scan)";

    /**
     * Full scans at {@code p} of what the writes at {@code p} just wrote, after the floor under
     * them.
     */
    private static void scans(
            AppendBenchmark bench, int p, Section section, boolean paimon, List<Pipeline> out) {
        out.add(
                new Pipeline(
                        REPLAY,
                        section,
                        () -> bench.replay(p),
                        () -> AppendBenchmark.checkReceived(bench.rows())));
        out.add(
                new Pipeline(
                        "tarn full scan -> blackhole",
                        section,
                        () -> bench.scanTarn(p),
                        () -> AppendBenchmark.checkReceived(bench.rows())));
        if (paimon) {
            out.add(
                    new Pipeline(
                            "paimon full scan -> blackhole",
                            section,
                            () -> bench.scanPaimon(p),
                            () -> AppendBenchmark.checkReceived(bench.rows())));
        }
    }

    /** A table per parallelism, the lowest first. */
    static List<Section> sections(AppendBenchmark bench, List<Integer> parallelisms) {
        List<Section> sections = new ArrayList<>();
        for (int p : parallelisms.stream().sorted().toList()) {
            sections.add(section(bench, p));
        }
        return sections;
    }

    private static Section section(AppendBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Append tables, %,d rows, parallelism %d:", bench.rows(), parallelism),
                parallelism,
                bench.rows(),
                OVERHEAD);
    }
}
