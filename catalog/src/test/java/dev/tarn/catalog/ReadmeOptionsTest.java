package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.TableOptions;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

/**
 * The README's options tables are generated from the option holders (catalog options, then the
 * table options of {@link TableOptions#all()}, primary-key options apart), so they cannot drift
 * from the code: this test renders them and compares the README's block between {@value #BEGIN} and
 * {@value #END} with it. Run it with {@code -Dtarn.regenerate-readme=true} to rewrite the block
 * instead.
 */
class ReadmeOptionsTest {

    static final String BEGIN = "<!-- options:begin -->";
    static final String END = "<!-- options:end -->";

    private static final Path README =
            Path.of("").toAbsolutePath().getParent().resolve("README.md");

    private static final String REGENERATE =
            "mvn -B -pl catalog -am test -Dtest=ReadmeOptionsTest"
                    + " -Dsurefire.failIfNoSpecifiedTests=false -Dtarn.regenerate-readme=true";

    @Test
    void readmeOptionsTablesAreTheOptionHolders() throws IOException {
        String readme = Files.readString(README);
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        assertThat(begin).as("README.md has the marker %s", BEGIN).isNotNegative();
        assertThat(end).as("README.md has the marker %s after %s", END, BEGIN).isGreaterThan(begin);
        String generated = "\n" + render();
        if (Boolean.getBoolean("tarn.regenerate-readme")) {
            Files.writeString(
                    README,
                    readme.substring(0, begin + BEGIN.length())
                            + generated
                            + readme.substring(end));
            return;
        }
        assertThat(readme.substring(begin + BEGIN.length(), end))
                .as(
                        "The options tables of README.md differ from the option holders; after"
                                + " changing an option, regenerate them with: %s",
                        REGENERATE)
                .isEqualTo(generated);
    }

    /** The block: the catalog's options, then the table options, primary-key ones apart. */
    static String render() {
        StringBuilder out = new StringBuilder();
        out.append("Catalog options (`CREATE CATALOG ... WITH (...)`):\n\n");
        out.append("| option | default | type | meaning |\n|---|---|---|---|\n");
        out.append("| `type` | (required) | string | `tarn` |\n");
        Set<ConfigOption<?>> required = new TarnCatalogFactory().requiredOptions();
        for (ConfigOption<?> option : TarnCatalogOptions.all()) {
            String meaning =
                    TarnCatalogOptions.tableOptions().contains(option)
                            ? "the table option (below), for each table of the catalog that does"
                                    + " not set it itself"
                            : description(option);
            String value = required.contains(option) ? "(required)" : defaultValue(option);
            out.append(row(code(option.key()), value, type(option), meaning));
        }
        List<ConfigOption<?>> primaryKey = LsmOptions.all();
        out.append("\nTable options:\n\n");
        tableRows(out, TableOptions.all().stream().filter(o -> !primaryKey.contains(o)).toList());
        // Options named after a column are no ConfigOption: their row is the one written here.
        out.append(
                row(
                        "`fields.<column>.default-value`",
                        "ALTER TABLE",
                        "(none: null)",
                        "string",
                        "The value the column reads as in rows of files written before it was"
                                + " added; text of the column's type (SPEC.md, \"Column"
                                + " defaults\")."));
        out.append("\nOptions of primary-key tables (refused on append tables):\n\n");
        tableRows(out, primaryKey);
        return out.toString();
    }

    private static void tableRows(StringBuilder out, List<ConfigOption<?>> options) {
        out.append("| option | changes | default | type | meaning |\n|---|---|---|---|---|\n");
        for (ConfigOption<?> option : options) {
            String scope = TableOptions.scope(option.key()).orElseThrow().label();
            String meaning = description(option);
            if (TableOptions.queryOnly().contains(option)) {
                meaning =
                        "Hint only (never stored): "
                                + Character.toLowerCase(meaning.charAt(0))
                                + meaning.substring(1);
            }
            out.append(row(code(option.key()), scope, defaultValue(option), type(option), meaning));
        }
    }

    private static String row(String... cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    private static String code(String text) {
        return "`" + text + "`";
    }

    private static String defaultValue(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "(none)";
        }
        Object value = option.defaultValue();
        if (value instanceof Duration duration) {
            return code(TimeUtils.formatWithHighestUnit(duration));
        }
        if (value instanceof MemorySize size) {
            return code(size.toString());
        }
        return code(String.valueOf(value));
    }

    private static final Map<Class<?>, String> TYPES =
            Map.of(
                    String.class, "string",
                    Integer.class, "int",
                    Long.class, "long",
                    Boolean.class, "boolean",
                    Double.class, "double",
                    Duration.class, "duration",
                    MemorySize.class, "memory size");

    /** The option's value type; Flink keeps it package-private, for its own docs generator. */
    private static String type(ConfigOption<?> option) {
        try {
            Method clazz = ConfigOption.class.getDeclaredMethod("getClazz");
            clazz.setAccessible(true);
            Class<?> type = (Class<?>) clazz.invoke(option);
            String name = TYPES.get(type);
            if (name == null) {
                throw new IllegalStateException(
                        "Option '" + option.key() + "' has type " + type + "; name it in TYPES");
            }
            return name;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read the type of " + option.key(), e);
        }
    }

    /** The description as Markdown: a quoted word or key ('none', 'bucket-key') becomes code. */
    private static String description(ConfigOption<?> option) {
        StringBuilder text = new StringBuilder();
        for (BlockElement block : option.description().getBlocks()) {
            if (!(block instanceof TextElement element) || !element.getElements().isEmpty()) {
                throw new IllegalStateException(
                        "Option '" + option.key() + "' has a structured description; render it");
            }
            text.append(element.getFormat());
        }
        if (text.isEmpty()) {
            throw new IllegalStateException("Option '" + option.key() + "' has no description");
        }
        return text.toString().replaceAll("'([^' ]+)'", "`$1`").replace("|", "\\|");
    }
}
