package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The deletion-vector issue's pipelines ({@code --deletion-vectors}), in the order of a round, the
 * sections of their report and the ratios the issue aims at. At each parallelism, highest first:
 * the ceiling, then the streaming upserts of {@link PrimaryKeyBenchmark} (a checkpoint every 2
 * seconds) into a table per {@link Variant}, with {@code 'deletion-vectors.enabled' = 'true'} and
 * without, for Tarn and (with {@code --paimon}) Paimon, each checked against the generator; then,
 * at the same parallelism, a full batch scan and a filtered one ({@value #FILTER}, about 1% of the
 * rows, on a value column) of each table into a blackhole that counts what it receives, and the job
 * overhead. Both systems get the same options, Paimon's defaults otherwise: its writer compacts as
 * it does by default, which its vectors need.
 */
final class DeletionVectorPipelines {

    static final String OVERHEAD = PrimaryKeyPipelines.OVERHEAD;

    /** On {@code k}, uniform over 0..999 in every file: no file or row group can be skipped. */
    static final String FILTER = " WHERE k < 10";

    private static final String WRITE = "upserts -> %s (stream, 2s cp)";
    private static final String SCAN = "%s scan -> blackhole";
    private static final String FILTERED = "%s filter k < 10";

    private static final String WRITE_ONLY = Compaction.NEVER.label;
    private static final String FULL = Compaction.EVERY_COMMIT.label;

    /** How a table's writer compacts it. */
    enum Compaction {
        /** As the system does by default. */
        DEFAULT("", "", null),
        /**
         * Never ({@code write-only}): its files stay as flushed, as a table whose compaction a
         * separate job does looks between two of its runs.
         */
        NEVER(" write-only", "_write_only", "'write-only' = 'true'"),
        /**
         * Fully at every commit ({@code full-compaction.delta-commits} = 1): the table holds each
         * key's current row once, as Paimon's table with vectors does after its writer's
         * compactions, so a read of it compares the readers on the same rows.
         */
        EVERY_COMMIT(
                " full-compaction", "_full_compaction", "'full-compaction.delta-commits' = '1'");

        private final String label;
        private final String table;
        @Nullable private final String option;

        Compaction(String label, String table, @Nullable String option) {
            this.label = label;
            this.table = table;
            this.option = option;
        }
    }

    /**
     * A table under test: one system's, with deletion vectors or without, compacted by its writer
     * as {@code compaction} says.
     */
    record Variant(String system, boolean vectors, Compaction compaction) {

        Variant(String system, boolean vectors) {
            this(system, vectors, Compaction.DEFAULT);
        }

        String catalog() {
            return system.equals("tarn") ? "lake" : "paimon";
        }

        String table() {
            return (vectors ? "users_dv" : "users_no_dv") + compaction.table;
        }

        /**
         * How the report names it: {@code tarn dv}, {@code paimon no dv}, {@code tarn dv
         * write-only}, {@code tarn dv full-compaction}.
         */
        String label() {
            return system + (vectors ? " dv" : " no dv") + compaction.label;
        }

        List<String> options() {
            List<String> options = new ArrayList<>();
            if (vectors) {
                options.add("'deletion-vectors.enabled' = 'true'");
            }
            if (compaction.option != null) {
                options.add(compaction.option);
            }
            return options;
        }
    }

    private DeletionVectorPipelines() {}

    /**
     * Each system's tables with vectors and without, compacted as by default; then Tarn's pair
     * written with {@code 'write-only'}, whose files stay as flushed (level 0, about four versions
     * of each key). Paimon has no such pair: its reads with vectors leave level-0 files out, so its
     * table with vectors would read as empty. Last, Tarn's table with vectors compacted fully at
     * every commit, which holds the rows Paimon's table with vectors holds.
     */
    static List<Variant> variants(boolean paimon) {
        List<Variant> variants = new ArrayList<>();
        for (String system : paimon ? List.of("tarn", "paimon") : List.of("tarn")) {
            variants.add(new Variant(system, false));
            variants.add(new Variant(system, true));
        }
        variants.add(new Variant("tarn", false, Compaction.NEVER));
        variants.add(new Variant("tarn", true, Compaction.NEVER));
        variants.add(new Variant("tarn", true, Compaction.EVERY_COMMIT));
        return variants;
    }

    /** Rows of the upserts' result that {@value #FILTER} selects. */
    static long filterRows(PrimaryKeyBenchmark bench) {
        return bench.leftRowsWhere(row -> row.getInt(1) < 10);
    }

    static List<Pipeline> of(
            PrimaryKeyBenchmark bench, List<Integer> parallelisms, boolean paimon) {
        long filtered = filterRows(bench);
        List<Pipeline> pipelines = new ArrayList<>();
        for (int p : Rounds.highestFirst(parallelisms)) {
            Section writes = writes(bench, p);
            pipelines.add(
                    new Pipeline(
                            Pipeline.CEILING,
                            writes,
                            () -> bench.blackhole(p),
                            bench::checkGenerated));
            for (Variant v : variants(paimon)) {
                pipelines.add(
                        new Pipeline(
                                String.format(WRITE, v.label()),
                                writes,
                                () -> bench.write(v.catalog(), v.table(), v.options(), true, p),
                                () -> bench.checkTable(v.catalog(), v.table())));
            }
            Section reads = reads(bench, p);
            for (Variant v : variants(paimon)) {
                pipelines.add(
                        new Pipeline(
                                String.format(SCAN, v.label()),
                                reads,
                                () -> bench.scan(v.catalog(), v.table(), "", p),
                                bench::checkScanned));
            }
            for (Variant v : variants(paimon)) {
                pipelines.add(
                        new Pipeline(
                                String.format(FILTERED, v.label()),
                                reads,
                                () -> bench.scan(v.catalog(), v.table(), FILTER, p),
                                () -> PrimaryKeyBenchmark.checkScanned(filtered)));
            }
            pipelines.add(
                    new Pipeline(
                            OVERHEAD,
                            reads,
                            () -> bench.scanEmptyTarn(p),
                            PrimaryKeyBenchmark::checkScannedNothing));
        }
        return pipelines;
    }

    /** Per parallelism, the lowest first: a table of writes, then one of reads. */
    static List<Section> sections(PrimaryKeyBenchmark bench, List<Integer> parallelisms) {
        List<Section> sections = new ArrayList<>();
        for (int p : parallelisms.stream().sorted().toList()) {
            sections.add(writes(bench, p));
            sections.add(reads(bench, p));
        }
        return sections;
    }

    private static Section writes(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Streaming upserts, %,d rows over %,d keys, 4 buckets, checkpoint every"
                                + " 2 s, parallelism %d:",
                        bench.rows(), bench.keys(), parallelism),
                parallelism,
                bench.rows(),
                null);
    }

    /** Whether {@code pipeline} is one of the batch reads (a scan, a filter, the job overhead). */
    static boolean isRead(Pipeline pipeline) {
        return OVERHEAD.equals(pipeline.section().overhead());
    }

    private static Section reads(PrimaryKeyBenchmark bench, int parallelism) {
        return new Section(
                String.format(
                        "Batch reads of the %,d rows the upserts leave, parallelism %d (rates per"
                                + " row of the table, filtered or not):",
                        bench.keys(), parallelism),
                parallelism,
                bench.keys(),
                OVERHEAD);
    }

    /**
     * Per parallelism measured, the issue's ratios of medians, each where both of its lines were
     * measured: write CPU with vectors over without (per system), and the scan rates of Tarn with
     * vectors over Paimon with vectors and over Tarn without, end to end and net of the job
     * overhead.
     */
    static void printRatios(Map<Pipeline, List<Measurement>> results, PrintStream out) {
        Map<String, Measurement> medians = new HashMap<>();
        List<Integer> parallelisms = new ArrayList<>();
        results.forEach(
                (pipeline, runs) -> {
                    int p = pipeline.section().parallelism();
                    medians.put(pipeline.name() + "@" + p, Measurement.median(runs));
                    if (!parallelisms.contains(p)) {
                        parallelisms.add(p);
                    }
                });
        for (int p : parallelisms.stream().sorted().toList()) {
            out.printf("%nRatios at parallelism %d (medians):%n", p);
            printWriteCpu(out, "tarn dv", "tarn no dv", medians, p);
            printWriteCpu(out, "paimon dv", "paimon no dv", medians, p);
            printWriteCpu(out, "tarn dv" + FULL, "tarn no dv", medians, p);
            Measurement overhead = medians.get(OVERHEAD + "@" + p);
            for (String kind : List.of(SCAN, FILTERED)) {
                printRate(out, kind, "tarn dv", "paimon dv", medians, p, overhead);
                printRate(out, kind, "tarn dv", "tarn no dv", medians, p, overhead);
                printRate(
                        out,
                        kind,
                        "tarn dv" + WRITE_ONLY,
                        "tarn no dv" + WRITE_ONLY,
                        medians,
                        p,
                        overhead);
                printRate(out, kind, "tarn dv" + FULL, "paimon dv", medians, p, overhead);
            }
        }
    }

    /** {@code label}'s write CPU over {@code other}'s. */
    private static void printWriteCpu(
            PrintStream out,
            String label,
            String other,
            Map<String, Measurement> medians,
            int parallelism) {
        Measurement on = medians.get(String.format(WRITE, label) + "@" + parallelism);
        Measurement off = medians.get(String.format(WRITE, other) + "@" + parallelism);
        if (on != null && off != null) {
            out.printf(
                    "  write CPU of %s over %s: %.2f s over %.2f s = %.2fx (target <= 1.3x)%n",
                    label,
                    other,
                    on.cpuSeconds(),
                    off.cpuSeconds(),
                    on.cpuSeconds() / off.cpuSeconds());
        }
    }

    /** {@code label}'s rate over {@code other}'s, for one kind of read. */
    private static void printRate(
            PrintStream out,
            String kind,
            String label,
            String other,
            Map<String, Measurement> medians,
            int parallelism,
            Measurement overhead) {
        Measurement tarn = medians.get(String.format(kind, label) + "@" + parallelism);
        Measurement them = medians.get(String.format(kind, other) + "@" + parallelism);
        if (tarn == null || them == null) {
            return;
        }
        String net = "";
        if (overhead != null
                && tarn.seconds() > overhead.seconds()
                && them.seconds() > overhead.seconds()) {
            net =
                    String.format(
                            ", net of the job overhead %.2fx",
                            (them.seconds() - overhead.seconds())
                                    / (tarn.seconds() - overhead.seconds()));
        }
        out.printf(
                "  rate of %s over %s: %.2f s against %.2f s = %.2fx%s (target >= 2x)%n",
                String.format(kind, label),
                String.format(kind, other),
                tarn.seconds(),
                them.seconds(),
                them.seconds() / tarn.seconds(),
                net);
    }

    /**
     * The freshness of a batch read after a streaming commit, on each system's table with vectors
     * whose write {@code pipelines} holds (as the last round left it): three commits of 1,000
     * rewritten keys each. Tarn's reads must see every commit, or the benchmark fails; Paimon's are
     * reported as they are.
     */
    static void printFreshness(
            PrimaryKeyBenchmark bench, Path warehouse, List<Pipeline> pipelines, PrintStream out)
            throws Exception {
        List<LakeSystem> systems = new ArrayList<>();
        for (String name : List.of("tarn", "paimon")) {
            String write = String.format(WRITE, new Variant(name, true).label());
            if (pipelines.stream().noneMatch(p -> p.name().equals(write))) {
                continue;
            }
            String root = "file://" + warehouse.resolve(name).toAbsolutePath();
            systems.add(name.equals("tarn") ? new TarnSystem(root) : LakeSystem.paimon(root));
        }
        if (!systems.isEmpty()) {
            out.printf("%nFreshness of a batch read right after a streaming commit (dv tables):%n");
        }
        for (LakeSystem system : systems) {
            List<FreshCommit.Read> reads =
                    FreshCommit.run(
                            system,
                            new Variant(system.name(), true).table(),
                            bench.lastWrites(1000),
                            bench.left(),
                            3);
            for (FreshCommit.Read read : reads) {
                out.printf(
                        "  %s: %s: %s%n",
                        system.name(), read.fresh() ? "fresh" : "NOT fresh", read);
            }
            if (system.name().equals("tarn")) {
                FreshCommit.check(system.name(), reads);
            }
        }
    }
}
