package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

class LookupJoinBenchmarkTest {

    private static final Path NOWHERE = Path.of("unused");

    private static LookupJoinBenchmark bench() {
        return new LookupJoinBenchmark(21_000, 1_000, 2, NOWHERE, new TableSizes(false));
    }

    @Test
    void aboutOneFactInTwentyOneMissesTheDimension() {
        LookupJoinBenchmark bench = bench();
        BenchGenFactory.Rows facts = new BenchGenFactory.Rows(bench.facts(), bench.factKeys());
        long known = 0;
        for (long i = 0; i < bench.facts(); i++) {
            if (facts.id(i) <= bench.dimKeys()) {
                known++;
            }
        }

        assertThat(bench.factKeys()).isEqualTo(1_050);
        assertThat(bench.innerResult().rows()).isEqualTo(known).isEqualTo(20_000);
        assertThat(bench.leftResult().rows()).isEqualTo(bench.facts());
        assertThat(bench.ceilingResult().rows()).isEqualTo(bench.facts());
        assertThat(bench.leftResult().checksum())
                .isNotEqualTo(bench.innerResult().checksum())
                .isNotEqualTo(bench.ceilingResult().checksum());
    }

    /** What a correct join delivers, built from the generator's rows, not from the benchmark. */
    private static void deliverJoin(SinkWriter<RowData> writer, long badTierOf) throws Exception {
        LookupJoinBenchmark bench = bench();
        BenchGenFactory.Rows facts = new BenchGenFactory.Rows(bench.facts(), bench.factKeys());
        BenchGenFactory.Rows dim = new BenchGenFactory.Rows(bench.dimKeys(), 0);
        for (long i = 0; i < bench.facts(); i++) {
            RowData fact = facts.row(i);
            long cid = fact.getLong(0);
            if (cid > bench.dimKeys()) {
                continue;
            }
            RowData d = dim.row(cid - 1);
            int tier = d.getInt(1) % 10 + (i == badTierOf ? 1 : 0);
            writer.write(GenericRowData.of(cid, fact.getInt(1), d.getString(2), tier), null);
        }
        writer.close();
    }

    @Test
    void theSinkAcceptsTheInnerJoinTheGeneratorImplies() throws Exception {
        deliverJoin(new JoinSinkFactory.JoinSink("right").createWriter(null), -1);

        JoinSinkFactory.check("right", bench().innerResult());
    }

    @Test
    void theSinkNamesAJoinWithOneWrongTier() throws Exception {
        long aMatchedFact = 0;
        deliverJoin(new JoinSinkFactory.JoinSink("wrong").createWriter(null), aMatchedFact);

        assertThatThrownBy(() -> JoinSinkFactory.check("wrong", bench().innerResult()))
                .isInstanceOf(WrongResultException.class)
                .hasMessageStartingWith("sink wrong received the expected 20,000 rows, but their")
                .hasMessageEndingWith(": some row joined the wrong dimension values");
    }

    @Test
    void theSinkNamesMissingRows() {
        assertThatThrownBy(() -> JoinSinkFactory.check("none", bench().innerResult()))
                .isInstanceOf(WrongResultException.class)
                .hasMessage("sink none received 0 joined rows, expected 20,000");
    }

    @Test
    void theJoinsAreProcessingTimeLookupsWithTheHintWhereAsked() {
        assertThat(
                        LookupJoinBenchmark.join(
                                new LookupJoinBenchmark.Variant("tarn", false, true), "dim"))
                .isEqualTo(
                        "INSERT INTO joined SELECT /*+ LOOKUP('table'='d', 'shuffle'='true') */"
                                + " f.id, f.k, d.name, d.tier FROM facts AS f JOIN lake.bench.dim"
                                + " FOR SYSTEM_TIME AS OF f.proc_time AS d ON f.id = d.id");
        assertThat(
                        LookupJoinBenchmark.join(
                                new LookupJoinBenchmark.Variant("paimon", true, false),
                                "dim",
                                "'lookup.cache-max-memory-size' = '1mb'"))
                .isEqualTo(
                        "INSERT INTO joined SELECT f.id, f.k, d.name, d.tier FROM facts AS f LEFT"
                                + " JOIN paimon.bench.dim /*+ OPTIONS('lookup.cache-max-memory-size'"
                                + " = '1mb') */ FOR SYSTEM_TIME AS OF f.proc_time AS d ON f.id ="
                                + " d.id");
    }

    @Test
    void aRoundRunsTheCeilingThenEveryJoinOfEachSystemAtEachParallelism() {
        List<String> names =
                LookupJoinPipelines.of(bench(), List.of(1, 2), List.of("tarn", "paimon")).stream()
                        .map(p -> p.name() + "@" + p.section().parallelism())
                        .toList();

        assertThat(names)
                .hasSize(14)
                .startsWith(
                        Pipeline.CEILING + "@2",
                        "facts -> tarn join@2",
                        "facts -> tarn join, shuffle hint@2",
                        "facts -> tarn left join@2",
                        "facts -> paimon join@2",
                        "facts -> paimon join, shuffle hint@2",
                        "facts -> paimon left join@2",
                        Pipeline.CEILING + "@1")
                .endsWith("facts -> paimon left join@1");
    }
}
