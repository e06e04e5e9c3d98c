package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergCommitBenchmarkTest {

    @TempDir Path warehouse;

    @Test
    void parsesItsFlagsWithDefaults() {
        assertThat(IcebergCommitBenchmark.Settings.parse(Map.of("iceberg-commit", "true")))
                .isEqualTo(new IcebergCommitBenchmark.Settings(100, 5_000_000, false, 10));
        assertThat(
                        IcebergCommitBenchmark.Settings.parse(
                                Map.of(
                                        "runs",
                                        "7",
                                        "rows",
                                        "1000",
                                        "paimon",
                                        "true",
                                        "compactions",
                                        "150",
                                        "interval-ms",
                                        "1000")))
                .isEqualTo(new IcebergCommitBenchmark.Settings(7, 1000, true, 150, 1000));
        assertThat(IcebergCommitBenchmark.Settings.parse(Map.of("interval-ms", "0")))
                .isEqualTo(new IcebergCommitBenchmark.Settings(100, 5_000_000, false, 10, 0));
        assertThat(IcebergCommitBenchmark.Settings.parse(Map.of("warm-rounds", "3")))
                .isEqualTo(new IcebergCommitBenchmark.Settings(100, 5_000_000, false, 10, 0, 3));
    }

    @Test
    void rejectsSizesThatAreNotPositiveIntegers() {
        assertThatThrownBy(() -> IcebergCommitBenchmark.Settings.parse(Map.of("runs", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --runs 0 of --iceberg-commit: expected a positive integer");
        assertThatThrownBy(() -> IcebergCommitBenchmark.Settings.parse(Map.of("rows", "5M")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --rows 5M of --iceberg-commit: expected a positive integer");
        assertThatThrownBy(() -> IcebergCommitBenchmark.Settings.parse(Map.of("compactions", "-1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid --compactions -1 of --iceberg-commit: expected a positive"
                                + " integer");
        assertThatThrownBy(() -> IcebergCommitBenchmark.Settings.parse(Map.of("interval-ms", "-5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid --interval-ms -5 of --iceberg-commit: expected a positive"
                                + " integer");
        assertThatThrownBy(
                        () -> IcebergCommitBenchmark.Settings.parse(Map.of("runs", "3000000000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid --runs 3000000000 of --iceberg-commit: expected a positive"
                                + " integer");
    }

    @Test
    void pacesRoundsAnIntervalApartUnlessTheRoundTookLonger() throws Exception {
        long start = System.nanoTime();
        long next = IcebergCommitBenchmark.pace(start, 80);
        assertThat((next - start) / 1_000_000)
                .as("ms to the next round")
                .isGreaterThanOrEqualTo(80);
        long late = System.nanoTime();
        long after = IcebergCommitBenchmark.pace(late - 1_000_000_000L, 80);
        assertThat((after - late) / 1_000_000).as("ms waited after a long round").isLessThan(80);
        long unpaced = System.nanoTime();
        assertThat((IcebergCommitBenchmark.pace(unpaced, 0) - unpaced) / 1_000_000)
                .as("ms waited back to back")
                .isLessThan(80);
    }

    @Test
    void printsTarnsCommitCostsOffAndOnOrWhyNot() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        IcebergCommitBenchmark.commitCosts(
                List.of(new TarnIcebergCommits()),
                3,
                2,
                150,
                warehouse,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(8);
        assertThat(lines[0])
                .isEqualTo(
                        "Commit cost of Iceberg metadata: 3 append commits of one file after 100"
                                + " snapshots, 2 full compaction commits, a round every 150 ms;"
                                + " milliseconds");
        String number = " +\\d+[.,]\\d\\d";
        String ratio = " +\\d+[.,]\\d\\dx";
        for (int i = 0; i < 2; i++) {
            String kind = i == 0 ? "append +" : "compaction +";
            assertThat(lines[2 + 3 * i]).matches("tarn +" + kind + "off" + number.repeat(4));
            // Until Tarn takes metadata.iceberg.storage, its tables refuse it.
            assertThat(lines[3 + 3 * i])
                    .matches(
                            "tarn +"
                                    + kind
                                    + "on +(n/a \\(option not available\\)|"
                                    + number.substring(2)
                                    + number.repeat(3)
                                    + ")");
            assertThat(lines[4 + 3 * i])
                    .matches(
                            "tarn +"
                                    + kind
                                    + "on/off +(n/a \\(option not available\\)|"
                                    + ratio.substring(2)
                                    + ratio.repeat(3)
                                    + ")");
        }
    }
}
