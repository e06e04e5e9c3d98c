package dev.tarn.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Runs every example script and compares each query's rows with the checked-in expectation in
 * {@code expected/<script>.out} (queries separated by a {@code ---} line), so the examples in the
 * README cannot rot. As the README's quick start does, the scripts run in order against one
 * warehouse, so a script that collides with an earlier one's tables fails here too.
 */
class SqlExamplesITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final List<String> SCRIPTS = SqlExamples.SCRIPTS;

    /** One warehouse for all scripts, in order, as the quick start runs them. */
    @TempDir static Path warehouse;

    @ParameterizedTest
    @FieldSource("SCRIPTS")
    void scriptProducesExpectedRows(String script) throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<List<String>> results = SqlExamples.run(SqlExamples.load(script, warehouse), quiet);
        String actual =
                results.stream()
                        .map(rows -> String.join("\n", rows))
                        .collect(Collectors.joining("\n---\n"));
        assertThat(actual).isEqualTo(expected(script));
    }

    private static String expected(String script) throws Exception {
        try (InputStream in =
                SqlExamplesITCase.class.getResourceAsStream("/expected/" + script + ".out")) {
            assertThat(in).as("expected/" + script + ".out").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
