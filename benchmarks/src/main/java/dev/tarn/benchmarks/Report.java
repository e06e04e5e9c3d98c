package dev.tarn.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark table: one line per pipeline, medians, with CPU over the first (ceiling) line.
 * "Over ceiling" pairs each run with the ceiling's run of the same round (rounds interleave the
 * pipelines) and takes the median of the differences: the machine's drift from round to round then
 * cancels out instead of adding to the figure.
 */
final class Report {

    private record Line(String name, Measurement median, List<Measurement> runs) {}

    private final long rows;
    private final List<Line> lines = new ArrayList<>();

    Report(long rows) {
        this.rows = rows;
    }

    void add(String name, List<Measurement> runs) {
        Line line = new Line(name, Measurement.median(runs), runs);
        lines.add(line);
        System.out.printf(
                "  %-50s median %.2f s (runs:%s; CPU s:%s)%n",
                name,
                line.median.seconds(),
                runs.stream()
                        .map(m -> String.format(" %.2f", m.seconds()))
                        .reduce("", String::concat),
                runs.stream()
                        .map(m -> String.format(" %.2f", m.cpuSeconds()))
                        .reduce("", String::concat));
    }

    /**
     * Scan rates with the fixed cost of running a job (the median of {@code overheadLine})
     * subtracted: the steady-state reading speed.
     */
    void printNetOfOverhead(PrintStream out, String overheadLine) {
        double overhead =
                lines.stream()
                        .filter(l -> l.name.equals(overheadLine))
                        .findFirst()
                        .orElseThrow()
                        .median
                        .seconds();
        out.printf("%nNet of the fixed job overhead (%.2f s):%n", overhead);
        for (Line line : lines) {
            if (line.name.contains("scan ->") || line.name.contains("filter")) {
                double net = line.median.seconds() - overhead;
                if (net <= 0.05) {
                    out.printf("%-50s %14s%n", line.name, "within the job overhead");
                } else {
                    out.printf("%-50s %,14.0f rows/s%n", line.name, rows / net);
                }
            }
        }
    }

    void print(PrintStream out) {
        // Only a section of writes starts with the ceiling; reads have none to be over.
        Line ceiling = lines.get(0).name.equals(Pipeline.CEILING) ? lines.get(0) : null;
        out.println();
        out.printf(
                "%-50s %10s %14s %16s %16s%n",
                "pipeline", "seconds", "rows/s", "CPU-s/M rows", "over ceiling");
        for (Line line : lines) {
            double cpu = line.median.cpuSecondsPerMillionRows(rows);
            out.printf(
                    "%-50s %10.2f %,14.0f %16.3f %16s%n",
                    line.name,
                    line.median.seconds(),
                    line.median.rowsPerSecond(rows),
                    cpu,
                    ceiling == null ? "" : String.format("%+.3f", overCeiling(line, ceiling)));
        }
    }

    /** Median over rounds of the line's CPU minus the ceiling's, per million rows. */
    private double overCeiling(Line line, Line ceiling) {
        if (line.runs.size() != ceiling.runs.size()) {
            return line.median.cpuSecondsPerMillionRows(rows)
                    - ceiling.median.cpuSecondsPerMillionRows(rows);
        }
        double[] differences = new double[line.runs.size()];
        for (int i = 0; i < differences.length; i++) {
            differences[i] =
                    line.runs.get(i).cpuSecondsPerMillionRows(rows)
                            - ceiling.runs.get(i).cpuSecondsPerMillionRows(rows);
        }
        java.util.Arrays.sort(differences);
        int n = differences.length;
        return n % 2 == 1 ? differences[n / 2] : (differences[n / 2 - 1] + differences[n / 2]) / 2;
    }
}
