package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static List<String> printed(Report report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().map(String::strip).toList();
    }

    @Test
    void aSectionOfWritesGivesCpuOverTheCeilingOfTheSameRound() {
        Report report = new Report(1_000_000);
        report.add(Pipeline.CEILING, List.of(new Measurement(1, 0.3), new Measurement(1, 0.5)));
        report.add("write", List.of(new Measurement(2, 1.3), new Measurement(2, 1.4)));

        assertThat(printed(report))
                .contains(
                        "datagen -> blackhole (ceiling)                           1.00      1,000,000"
                                + "            0.400           +0.000",
                        "write                                                    2.00        500,000"
                                + "            1.350           +0.950");
    }

    @Test
    void aSectionOfReadsHasNoCeilingToBeOver() {
        Report report = new Report(1_000_000);
        report.add("tarn scan -> blackhole", List.of(new Measurement(0.5, 0.4)));
        report.add("paimon scan -> blackhole", List.of(new Measurement(1, 0.9)));

        assertThat(printed(report))
                .contains(
                        "tarn scan -> blackhole                                   0.50      2,000,000"
                                + "            0.400",
                        "paimon scan -> blackhole                                 1.00      1,000,000"
                                + "            0.900");
    }
}
