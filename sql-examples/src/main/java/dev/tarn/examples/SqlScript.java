package dev.tarn.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A SQL script split into statements: {@code ;} at the end of a line ends a statement, {@code --}
 * starts a comment line, and {@code ${name}} is replaced by a variable.
 */
record SqlScript(String name, List<String> statements) {

    static SqlScript parse(String name, String text, Map<String, String> variables) {
        for (Map.Entry<String, String> v : variables.entrySet()) {
            text = text.replace("${" + v.getKey() + "}", v.getValue());
        }
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
            throw new IllegalArgumentException(
                    "Script " + name + " ends without ';' after: " + current.toString().strip());
        }
        return new SqlScript(name, statements);
    }
}
