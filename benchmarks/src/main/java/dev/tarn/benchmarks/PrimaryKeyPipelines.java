package dev.tarn.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The primary-key benchmark's pipelines in the order of a round, and the sections of its report.
 * The ceiling and the writes run at every parallelism, the highest first; the reads run at the
 * lowest, after its writes. One round: the ceilings, the batch writes, then reads of what they left
 * (one sorted run per bucket), then the streaming writes, then reads of what those left (level-0
 * files of the last checkpoints over compacted runs, merged on read).
 */
final class PrimaryKeyPipelines {

    static final String OVERHEAD = "job overhead (empty pk table scan)";

    private PrimaryKeyPipelines() {}

    static List<Pipeline> of(
            PrimaryKeyBenchmark bench, List<Integer> parallelisms, boolean paimon) {
        List<Integer> descending = Rounds.highestFirst(parallelisms);
        List<Pipeline> pipelines = new ArrayList<>();
        for (int p : descending) {
            pipelines.add(
                    new Pipeline(
                            Pipeline.CEILING,
                            writes(bench, p),
                            () -> bench.blackhole(p),
                            bench::checkGenerated));
        }
        for (int p : descending) {
            addWrites(pipelines, bench, p, false, paimon);
        }
        int p = Collections.min(parallelisms);
        Section reads = reads(bench, p);
        pipelines.add(
                new Pipeline(
                        "tarn scan -> blackhole (after batch)",
                        reads,
                        () -> bench.scanTarn(p),
                        bench::checkScanned));
        pipelines.add(
                new Pipeline(
                        OVERHEAD,
                        reads,
                        () -> bench.scanEmptyTarn(p),
                        PrimaryKeyBenchmark::checkScannedNothing));
        pipelines.add(
                new Pipeline(
                        "tarn point lookup by key",
                        reads,
                        () -> bench.lookupTarn(p),
                        bench::checkLookup));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "paimon scan -> blackhole (after batch)",
                            reads,
                            () -> bench.scanPaimon(p),
                            bench::checkScanned));
            pipelines.add(
                    new Pipeline(
                            "paimon point lookup by key",
                            reads,
                            () -> bench.lookupPaimon(p),
                            bench::checkLookup));
        }
        for (int q : descending) {
            addWrites(pipelines, bench, q, true, paimon);
        }
        pipelines.add(
                new Pipeline(
                        "tarn scan -> blackhole (after stream)",
                        reads,
                        () -> bench.scanTarn(p),
                        bench::checkScanned));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "paimon scan -> blackhole (after stream)",
                            reads,
                            () -> bench.scanPaimon(p),
                            bench::checkScanned));
        }
        return pipelines;
    }

    private static void addWrites(
            List<Pipeline> pipelines,
            PrimaryKeyBenchmark bench,
            int p,
            boolean streaming,
            boolean paimon) {
        String mode = streaming ? "(stream, 2s cp)" : "(batch)";
        pipelines.add(
                new Pipeline(
                        "upserts -> tarn pk table " + mode,
                        writes(bench, p),
                        () -> bench.writeTarn(streaming, p),
                        () -> bench.checkTable("lake")));
        if (paimon) {
            pipelines.add(
                    new Pipeline(
                            "upserts -> paimon pk table " + mode,
                            writes(bench, p),
                            () -> bench.writePaimon(streaming, p),
                            () -> bench.checkTable("paimon")));
        }
    }

    /** A table of writes per parallelism, the lowest first, then the table of reads. */
    static List<Section> sections(PrimaryKeyBenchmark bench, List<Integer> parallelisms) {
        List<Section> sections = new ArrayList<>();
        for (int p : parallelisms.stream().sorted().toList()) {
            sections.add(writes(bench, p));
        }
        sections.add(reads(bench, Collections.min(parallelisms)));
        return sections;
    }

    private static Section writes(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Upserts, %,d rows over %,d keys, 4 buckets, parallelism %d:",
                        bench.rows(), bench.keys(), parallelism),
                parallelism,
                bench.rows(),
                null);
    }

    private static Section reads(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Reads of the %,d rows the upserts leave, parallelism %d:",
                        bench.keys(), parallelism),
                parallelism,
                bench.keys(),
                OVERHEAD);
    }
}
