package dev.tarn.assembly.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The results in the SQL client's output in {@code tableau} mode, each as the rows a {@code
 * Row.toString()} would give ({@code +I[a, b]}, {@code null} for {@code <NULL>}), so they compare
 * with the expectations the MiniCluster tests check in. A batch result is a bordered table closed
 * by {@code N rows in set}, or {@code Empty set}; a streaming result's rows carry their kind in the
 * first column ({@code | +U | a | b |}).
 */
final class TableauOutput {

    /** A table border; the client may print one right after the echo of its statement. */
    private static final Pattern BORDER = Pattern.compile(".*\\+(-+\\+)+$");

    private static final String EMPTY = "Empty set";

    private TableauOutput() {}

    /** Every batch result in the output, in order, each a list of rows. */
    static List<List<String>> batchResults(String output) {
        List<List<String>> results = new ArrayList<>();
        List<String> rows = null;
        int borders = 0;
        for (String line : output.lines().toList()) {
            if (rows == null) {
                if (BORDER.matcher(line).matches()) {
                    rows = new ArrayList<>();
                    borders = 1;
                } else if (line.contains(EMPTY)) {
                    results.add(List.of());
                }
            } else if (BORDER.matcher(line).matches()) {
                if (++borders == 3) {
                    results.add(rows);
                    rows = null;
                }
            } else if (line.startsWith("|") && borders == 2) {
                rows.add("+I" + Arrays.toString(cells(line).toArray()));
            }
        }
        return results;
    }

    /** Every row of a streaming result so far, with its kind: {@code +U[a, b]}. */
    static List<String> changelogRows(String output) {
        List<String> rows = new ArrayList<>();
        for (String line : output.lines().toList()) {
            // A row the client is still printing has no closing bar yet.
            if (line.startsWith("| ") && line.endsWith("|")) {
                List<String> cells = cells(line);
                if (cells.get(0).matches("[+-][IUD]")) {
                    rows.add(cells.get(0) + cells.subList(1, cells.size()));
                }
            }
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.length() - 1);
        return Arrays.stream(inner.split("\\|", -1))
                .map(String::strip)
                .map(c -> c.equals("<NULL>") ? "null" : c)
                .toList();
    }
}
