package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeletionVectorPipelinesTest {

    private static final Path NOWHERE = Path.of("unused");

    @Test
    void theFilterSelectsAboutOnePercentOfTheUpsertsResult() {
        PrimaryKeyBenchmark bench =
                new PrimaryKeyBenchmark(5_000_000, NOWHERE, new TableSizes(false), 2);

        long selected = DeletionVectorPipelines.filterRows(bench);

        assertThat(bench.keys()).isEqualTo(1_250_000);
        assertThat(selected).isBetween(11_875L, 13_125L);
    }

    @Test
    void aRoundWritesEachTableThenReadsItAtTheSameParallelism() {
        PrimaryKeyBenchmark bench = new PrimaryKeyBenchmark(400, NOWHERE, new TableSizes(false), 2);

        List<String> names =
                DeletionVectorPipelines.of(bench, List.of(1, 2), true).stream()
                        .map(p -> p.name() + "@" + p.section().parallelism())
                        .toList();

        assertThat(names.subList(0, 23))
                .containsExactly(
                        Pipeline.CEILING + "@2",
                        "upserts -> tarn no dv (stream, 2s cp)@2",
                        "upserts -> tarn dv (stream, 2s cp)@2",
                        "upserts -> paimon no dv (stream, 2s cp)@2",
                        "upserts -> paimon dv (stream, 2s cp)@2",
                        "upserts -> tarn no dv write-only (stream, 2s cp)@2",
                        "upserts -> tarn dv write-only (stream, 2s cp)@2",
                        "upserts -> tarn dv full-compaction (stream, 2s cp)@2",
                        "tarn no dv scan -> blackhole@2",
                        "tarn dv scan -> blackhole@2",
                        "paimon no dv scan -> blackhole@2",
                        "paimon dv scan -> blackhole@2",
                        "tarn no dv write-only scan -> blackhole@2",
                        "tarn dv write-only scan -> blackhole@2",
                        "tarn dv full-compaction scan -> blackhole@2",
                        "tarn no dv filter k < 10@2",
                        "tarn dv filter k < 10@2",
                        "paimon no dv filter k < 10@2",
                        "paimon dv filter k < 10@2",
                        "tarn no dv write-only filter k < 10@2",
                        "tarn dv write-only filter k < 10@2",
                        "tarn dv full-compaction filter k < 10@2",
                        DeletionVectorPipelines.OVERHEAD + "@2");
        assertThat(names).hasSize(46).endsWith(DeletionVectorPipelines.OVERHEAD + "@1");
    }

    @Test
    void writeOnlyTablesNeverCompactAndKeepTheirVectorsOption() {
        DeletionVectorPipelines.Variant dv =
                new DeletionVectorPipelines.Variant(
                        "tarn", true, DeletionVectorPipelines.Compaction.NEVER);
        DeletionVectorPipelines.Variant merged =
                new DeletionVectorPipelines.Variant(
                        "tarn", false, DeletionVectorPipelines.Compaction.NEVER);

        assertThat(dv.table()).isEqualTo("users_dv_write_only");
        assertThat(dv.options())
                .containsExactly("'deletion-vectors.enabled' = 'true'", "'write-only' = 'true'");
        assertThat(merged.table()).isEqualTo("users_no_dv_write_only");
        assertThat(merged.options()).containsExactly("'write-only' = 'true'");
        assertThat(new DeletionVectorPipelines.Variant("paimon", true).options())
                .containsExactly("'deletion-vectors.enabled' = 'true'");
    }

    @Test
    void theFullyCompactedTableCompactsAtEveryCommit() {
        DeletionVectorPipelines.Variant full =
                new DeletionVectorPipelines.Variant(
                        "tarn", true, DeletionVectorPipelines.Compaction.EVERY_COMMIT);

        assertThat(full.label()).isEqualTo("tarn dv full-compaction");
        assertThat(full.table()).isEqualTo("users_dv_full_compaction");
        assertThat(full.options())
                .containsExactly(
                        "'deletion-vectors.enabled' = 'true'",
                        "'full-compaction.delta-commits' = '1'");
    }

    @Test
    void ratiosCompareMediansAsTheIssueStatesItsTargets() {
        PrimaryKeyBenchmark bench = new PrimaryKeyBenchmark(400, NOWHERE, new TableSizes(false), 2);
        Map<String, double[]> times = new java.util.HashMap<>();
        times.put("upserts -> tarn dv (stream, 2s cp)", new double[] {5, 12});
        times.put("upserts -> tarn no dv (stream, 2s cp)", new double[] {4, 10});
        times.put("upserts -> paimon dv (stream, 2s cp)", new double[] {9, 30});
        times.put("upserts -> paimon no dv (stream, 2s cp)", new double[] {8, 20});
        times.put("tarn dv scan -> blackhole", new double[] {0.5, 1});
        times.put("tarn no dv scan -> blackhole", new double[] {1.1, 2});
        times.put("paimon dv scan -> blackhole", new double[] {1.3, 3});
        times.put("tarn dv filter k < 10", new double[] {0.3, 1});
        times.put("paimon dv filter k < 10", new double[] {0.9, 1});
        times.put("tarn dv write-only scan -> blackhole", new double[] {0.4, 1});
        times.put("tarn no dv write-only scan -> blackhole", new double[] {1.7, 3});
        times.put("upserts -> tarn dv full-compaction (stream, 2s cp)", new double[] {6, 15});
        times.put("tarn dv full-compaction scan -> blackhole", new double[] {0.65, 1});
        times.put(DeletionVectorPipelines.OVERHEAD, new double[] {0.1, 0.1});
        Map<Pipeline, List<Measurement>> results = new LinkedHashMap<>();
        for (Pipeline p : DeletionVectorPipelines.of(bench, List.of(2), true)) {
            double[] t = times.get(p.name());
            if (t != null) {
                // Three rounds: the median is the middle one.
                results.put(
                        p,
                        List.of(
                                new Measurement(t[0] * 2, t[1] * 2),
                                new Measurement(t[0], t[1]),
                                new Measurement(t[0] / 2, t[1] / 2)));
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        DeletionVectorPipelines.printRatios(
                results, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(
                        "",
                        "Ratios at parallelism 2 (medians):",
                        "  write CPU of tarn dv over tarn no dv: 12.00 s over 10.00 s = 1.20x"
                                + " (target <= 1.3x)",
                        "  write CPU of paimon dv over paimon no dv: 30.00 s over 20.00 s = 1.50x"
                                + " (target <= 1.3x)",
                        "  write CPU of tarn dv full-compaction over tarn no dv: 15.00 s over"
                                + " 10.00 s = 1.50x (target <= 1.3x)",
                        "  rate of tarn dv scan -> blackhole over paimon dv scan -> blackhole:"
                                + " 0.50 s against 1.30 s = 2.60x, net of the job overhead 3.00x"
                                + " (target >= 2x)",
                        "  rate of tarn dv scan -> blackhole over tarn no dv scan -> blackhole:"
                                + " 0.50 s against 1.10 s = 2.20x, net of the job overhead 2.50x"
                                + " (target >= 2x)",
                        "  rate of tarn dv write-only scan -> blackhole over tarn no dv write-only"
                                + " scan -> blackhole: 0.40 s against 1.70 s = 4.25x, net of the"
                                + " job overhead 5.33x (target >= 2x)",
                        "  rate of tarn dv full-compaction scan -> blackhole over paimon dv scan"
                                + " -> blackhole: 0.65 s against 1.30 s = 2.00x, net of the job"
                                + " overhead 2.18x (target >= 2x)",
                        "  rate of tarn dv filter k < 10 over paimon dv filter k < 10: 0.30 s"
                                + " against 0.90 s = 3.00x, net of the job overhead 4.00x (target"
                                + " >= 2x)");
    }

    @Test
    void aReadThatMissedTheCommitFailsTheBenchmark() {
        FreshCommit.Read stale =
                new FreshCommit.Read(
                        2, 100, 0, new TableContents(2_000, 5), new TableContents(2_000, 4));

        assertThat(stale.fresh()).isFalse();
        assertThatThrownBy(() -> FreshCommit.check("tarn", List.of(stale)))
                .isInstanceOf(WrongResultException.class)
                .hasMessage(
                        "a batch read of tarn right after a streaming commit missed it: after"
                                + " commit 2, 0 of its 100 rewritten keys, 2,000 rows with checksum"
                                + " 4 (expected 2,000 rows with checksum 5)");
    }

    @Test
    void aRoundRunsEachReadAsOftenAsScanRepeatsSaysAndEachWriteOnce() throws Exception {
        PrimaryKeyBenchmark bench = new PrimaryKeyBenchmark(400, NOWHERE, new TableSizes(false), 2);
        Map<String, Integer> ran = new HashMap<>();
        List<Pipeline> pipelines = new ArrayList<>();
        for (Pipeline p : DeletionVectorPipelines.of(bench, List.of(2), false)) {
            pipelines.add(
                    new Pipeline(
                            p.name(),
                            p.section(),
                            () -> ran.merge(p.name(), 1, Integer::sum),
                            () -> {}));
        }

        Map<Pipeline, List<Measurement>> results =
                Rounds.measure(pipelines, 2, p -> DeletionVectorPipelines.isRead(p) ? 3 : 1);

        assertThat(ran)
                .containsEntry("upserts -> tarn dv (stream, 2s cp)", 2)
                .containsEntry(Pipeline.CEILING, 2)
                .containsEntry("tarn dv scan -> blackhole", 6)
                .containsEntry("tarn dv filter k < 10", 6)
                .containsEntry(DeletionVectorPipelines.OVERHEAD, 6);
        results.forEach(
                (p, measured) -> assertThat(measured).as(p.name()).hasSize(ran.get(p.name())));
    }

    @Test
    void scanRepeatsIsAnIntegerFromOneToAHundred() {
        assertThat(Setup.scanRepeats(null)).isEqualTo(1);
        assertThat(Setup.scanRepeats(" 5")).isEqualTo(5);
        for (String bad : List.of("0", "101", "-1", "five")) {
            assertThatThrownBy(() -> Setup.scanRepeats(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Invalid --scan-repeats "
                                    + bad
                                    + ": expected an integer from 1 to 100");
        }
    }
}
