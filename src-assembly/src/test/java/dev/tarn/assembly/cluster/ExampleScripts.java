package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The project's SQL examples ({@code sql-examples}), as the MiniCluster test runs them, for one SQL
 * client session: each script's statements with {@code ${warehouse}} set to a warehouse of its own,
 * and the rows its queries must return ({@code expected/<script>.out}, queries separated by a
 * {@code ---} line). The statement rules are those of the examples' own runner: {@code ;} at the
 * end of a line ends a statement, a line starting with {@code --} is a comment.
 */
record ExampleScripts(List<String> names, List<String> statements, List<List<String>> expected) {

    /** Loads every {@code NN_*.sql} of {@code scriptDir}, in name order. */
    static ExampleScripts load(Path scriptDir, Path expectedDir, Warehouse warehouse)
            throws IOException {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(scriptDir)) {
            scripts =
                    files.filter(f -> f.getFileName().toString().matches("\\d\\d_.*\\.sql"))
                            .sorted()
                            .toList();
        }
        if (scripts.isEmpty()) {
            throw new IllegalArgumentException("No example scripts in " + scriptDir);
        }
        List<String> names = new ArrayList<>();
        List<String> statements = new ArrayList<>();
        List<List<String>> expected = new ArrayList<>();
        for (Path script : scripts) {
            String name = script.getFileName().toString();
            names.add(name);
            // Each script starts from a catalog of its own, as in its own session.
            statements.add("DROP CATALOG IF EXISTS lake");
            String uri = warehouse.uri() + "/examples-" + name.substring(0, 2);
            String catalogWith = warehouse.catalogWith().replace(warehouse.uri(), uri);
            // The catalog's WITH clause (with any extra options), then a bare path elsewhere.
            String text =
                    Files.readString(script)
                            .replace("('type' = 'tarn', 'warehouse' = '${warehouse}')", catalogWith)
                            .replace("${warehouse}", uri);
            statements.addAll(split(name, text));
            String out = Files.readString(expectedDir.resolve(name + ".out")).strip();
            for (String block : out.split("\n---\n", -1)) {
                expected.add(block.isEmpty() ? List.of() : Arrays.asList(block.split("\n")));
            }
        }
        return new ExampleScripts(names, statements, expected);
    }

    /** Whether the SQL client prints a result table for the statement. */
    static boolean printsTable(String statement) {
        String s = statement.stripLeading().toUpperCase();
        return isQuery(s)
                || s.startsWith("CALL")
                || s.startsWith("DESC")
                || s.startsWith("EXPLAIN");
    }

    /** A query whose rows the examples' expectations hold (as the examples' runner decides). */
    static boolean isQuery(String statement) {
        String s = statement.stripLeading().toUpperCase();
        return s.startsWith("SELECT") || s.startsWith("WITH") || s.startsWith("SHOW");
    }

    private static List<String> split(String name, String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || (trimmed.isEmpty() && current.isEmpty())) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(line, 0, line.lastIndexOf(';'));
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalArgumentException("Script " + name + " ends without ';'");
        }
        return statements;
    }
}
