package dev.tarn.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.catalog.TarnCatalogOptions;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableOptions.OptionScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

/**
 * Keeps README.md true: every option is in its tables with where it may change, and CI runs the
 * README's test command.
 */
class ReadmeTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private static String readme() throws IOException {
        return Files.readString(ROOT.resolve("README.md"));
    }

    @Test
    void optionsTableListsEveryOption() throws IOException {
        List<ConfigOption<?>> options = new ArrayList<>(TableOptions.all());
        options.add(TarnCatalogOptions.WAREHOUSE);
        options.add(TarnCatalogOptions.DEFAULT_DATABASE);
        String readme = readme();
        for (ConfigOption<?> option : options) {
            assertThat(readme).as("README options table").contains("| `" + option.key() + "` |");
        }
    }

    @Test
    void optionsTablesSayWhereEachTableOptionMayChange() throws IOException {
        String readme = readme();
        for (ConfigOption<?> option : TableOptions.all()) {
            OptionScope scope = TableOptions.scope(option.key()).orElseThrow();
            assertThat(readme)
                    .as("README row of %s", option.key())
                    .contains("| `" + option.key() + "` | " + scope.label() + " |");
        }
    }

    @Test
    void ciRunsTheReadmeTestCommand() throws IOException {
        String readme = readme();
        String command = "mvn -B verify";
        assertThat(readme).contains("# 2. Run all tests\n" + command + "\n");
        List<String> ciCommands =
                Files.readAllLines(ROOT.resolve(".ci/run")).stream()
                        .filter(l -> l.startsWith("mvn "))
                        .toList();
        assertThat(ciCommands).containsExactly(command);
    }
}
