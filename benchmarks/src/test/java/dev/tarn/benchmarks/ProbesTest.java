package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every probe still runs, checks its result and reports, at a size that takes milliseconds. */
class ProbesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "parquet-throughput, Parquet throughput, ''",
        "parquet-write-cpu, Parquet write CPU, ''",
        "sort-buffer, SortBuffer, ''",
        "lookup-get, TableLookup gets, on two threads: "
    })
    void runsEachRoundAndPrintsTheMedians(String probe, String component, String secondRounds)
            throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Probes.run(probe, "3000", "2", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        // Two rounds, and with a second kind of round two more, then the medians.
        assertThat(lines).hasSize(secondRounds.isEmpty() ? 3 : 5);
        assertThat(lines[0]).startsWith("round 0: ");
        assertThat(lines[1]).startsWith("round 1: ");
        if (!secondRounds.isEmpty()) {
            assertThat(lines[2]).startsWith("round 0 " + secondRounds);
            assertThat(lines[3]).startsWith("round 1 " + secondRounds);
        }
        // In the default locale, as the probes print.
        assertThat(lines[lines.length - 1])
                .startsWith(
                        String.format("%s, medians over 2 rounds of %,d rows", component, 3000));
    }

    @Test
    void maintenanceChecksAndCleansASmallTable() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Probes.run("maintenance", "50", "1", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).startsWith("5 snapshots, 50 data files in 10 buckets (built in ");
        assertThat(lines[1]).startsWith("round 0: check_table ");
        assertThat(lines[2]).startsWith("Maintenance, medians over 1 rounds of 50 data files: ");
    }

    @Test
    void expirationProbeExpiresEverySnapshotButTheLast() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Probes.run(
                "expire-snapshots",
                "200",
                "1",
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("round 0: ").contains("; expired 20 snapshots, deleted ");
        assertThat(lines[1])
                .startsWith("Snapshot expiration, median over 1 rounds of 20 snapshots: ");
    }

    @Test
    void rejectsAnUnknownProbeOrSize() {
        PrintStream out =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Probes.run("parquet", null, null, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown probe 'parquet' of --probe: expected one of parquet-throughput,"
                                + " parquet-write-cpu, sort-buffer, lookup-get,"
                                + " changelog-cost, maintenance, schema-scan, filtered-scan,"
                                + " expire-snapshots");
        assertThatThrownBy(() -> Probes.run("sort-buffer", "0", null, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --rows 0 of --probe: expected a positive integer");
        assertThatThrownBy(() -> Probes.run("sort-buffer", null, "x", out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --runs x of --probe: expected a positive integer");
    }
}
