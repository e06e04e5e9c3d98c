package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

class StreamRunTest {

    @Test
    void aPipelineThatFellShortIsNotRunAgainAndSaysWhen() throws Exception {
        List<String> calls = new ArrayList<>();
        Map<String, StreamRun.Repeatable<Integer>> pipelines = new LinkedHashMap<>();
        pipelines.put(
                "short",
                warmUp -> {
                    calls.add("short " + warmUp);
                    return StreamRun.fellShort("ended early");
                });
        pipelines.put(
                "fine",
                warmUp -> {
                    calls.add("fine " + warmUp);
                    return StreamRun.of(calls.size());
                });

        Map<String, List<StreamRun<Integer>>> results = StreamRun.rounds(pipelines, true, 2);

        assertThat(calls).containsExactly("short true", "fine true", "fine false", "fine false");
        assertThat(StreamRun.shortfall(results.get("short")))
                .isEqualTo("ended early (in the warm-up run)");
        assertThat(results.get("fine")).containsExactly(StreamRun.of(3), StreamRun.of(4));
        assertThat(StreamRun.shortfall(results.get("fine"))).isNull();
    }

    @Test
    void aWrongResultNamesThePipelineAndTheRun() {
        Map<String, StreamRun.Repeatable<Integer>> pipelines =
                Map.of(
                        "tarn append",
                        warmUp -> {
                            throw new WrongResultException("1 row missing");
                        });

        assertThatThrownBy(() -> StreamRun.rounds(pipelines, false, 1))
                .isInstanceOf(WrongResultException.class)
                .hasMessage(
                        "Pipeline 'tarn append' gave a wrong result in a measured run: 1 row missing");
    }

    @Test
    void aRunHasAFigureOrAShortfall() {
        assertThatThrownBy(() -> new StreamRun<>(1, "ended early"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "A stream run has a figure or a shortfall, not both or neither: 1, ended"
                                + " early");
    }

    @Test
    void aRefusalNamesWhatTheRootCauseRefused() {
        ValidationException refused =
                new ValidationException(
                        "Unable to create a source for reading table 'lake.bench.t'. More.",
                        new IllegalArgumentException(
                                "Unknown option 'scan.mode' for table bench.t. Supported options:"
                                        + " [bucket, ...]"));

        assertThat(new StreamingJob.Refused(refused).getMessage())
                .isEqualTo(
                        "refused at planning: Unable to create a source for reading table"
                                + " 'lake.bench.t'. Unknown option 'scan.mode' for table"
                                + " bench.t.");
    }
}
