package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The CPU cost of {@code changelog-producer} = {@code lookup} and {@code full-compaction} on the
 * write alone, through the format's write seam without Flink: the benchmark's upserts over a
 * quarter as many keys into 4 buckets, a commit every 200,000 rows (many commits, so most changes
 * update a key written by an earlier one), once with {@code none} and once with each producer per
 * round. Prints the process CPU time of each (flushes and compactions run on threads of their own)
 * and their ratios to {@code none}. Checks that all leave one row per key and that each producer's
 * changelog holds a row per new key and two per changed one; {@code lookup} of this deduplicating
 * table stores the before-images alone, a row per changed key (its level-0 files hold the rest).
 */
final class ChangelogCostProbe {

    private static final long ROWS_PER_COMMIT = 200_000;

    /** The producers compared, {@code none} first: the others' cost is given relative to it. */
    private static final List<String> PRODUCERS = List.of("none", "lookup", "full-compaction");

    private ChangelogCostProbe() {}

    static void run(int rows, int runs, PrintStream out) throws Exception {
        long keys = Math.max(1, rows / 4);
        java.nio.file.Path dir = Files.createTempDirectory("tarn-changelog-probe");
        out.printf(
                "%,d upserts over %,d keys, 4 buckets, a commit every %,d rows, %d rounds%n",
                rows, keys, ROWS_PER_COMMIT, runs);
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        for (String producer : PRODUCERS) {
            write(dir.resolve("warmup-" + producer), Math.min(rows, 400_000), producer);
            cpu.put(producer, new ArrayList<>());
        }
        for (int round = 0; round < runs; round++) {
            for (String producer : PRODUCERS) {
                cpu.get(producer).add(write(dir.resolve(producer + "-" + round), rows, producer));
            }
        }
        double none = median(cpu.get("none"));
        StringBuilder line = new StringBuilder("write CPU (medians):");
        cpu.forEach(
                (p, runsOf) ->
                        line.append(String.format(" %s %.2f s %s;", p, median(runsOf), runsOf)));
        for (String producer : PRODUCERS.subList(1, PRODUCERS.size())) {
            line.append(
                    String.format(
                            " %s over none = %.2fx;", producer, median(cpu.get(producer)) / none));
        }
        out.println(line);
        Files.delete(dir);
    }

    /** Writes the upserts into a new table; returns the CPU seconds the process spent on it. */
    private static double write(java.nio.file.Path location, long rows, String producer)
            throws Exception {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(location.toUri()),
                        "bench.changelog",
                        TableSchema.create(
                                rowType(),
                                List.of(),
                                List.of("id"),
                                Map.of("bucket", "4", "changelog-producer", producer),
                                null));
        long keys = Math.max(1, rows / 4);
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(rows, keys);
        long changelogRows = 0;
        // What the changelog must hold: per commit, a +I per key new to the table and a -U/+U
        // pair per key written before (the generator never writes a row twice).
        BitSet seen = new BitSet();
        BitSet inCommit = new BitSet();
        long expected = 0;
        long cpu0 = Measurement.processCpuNanos();
        long gc0 = gcMillis();
        try (TableWrite write = table.newWrite()) {
            long commits = 0;
            for (long i = 0; i < rows; i++) {
                RowData row = generator.row(i);
                write.write(row);
                inCommit.set((int) row.getLong(0));
                if (i % ROWS_PER_COMMIT == ROWS_PER_COMMIT - 1 || i == rows - 1) {
                    BitSet again = (BitSet) inCommit.clone();
                    again.and(seen);
                    // lookup stores the old rows alone (the level-0 files hold the new ones).
                    expected +=
                            producer.equals("lookup")
                                    ? again.cardinality()
                                    : inCommit.cardinality() + again.cardinality();
                    seen.or(inCommit);
                    inCommit.clear();
                    List<CommitMessage> messages = write.prepareCommit(i == rows - 1);
                    for (CommitMessage m : messages) {
                        changelogRows +=
                                m.changelogFiles().stream().mapToLong(DataFile::rowCount).sum();
                    }
                    table.newCommit("probe").commit(CommitRequest.of(++commits, messages));
                }
            }
        }
        double seconds = (Measurement.processCpuNanos() - cpu0) / 1e9;
        System.out.printf(
                "  %s: CPU %.2f s, of it in collections about %.2f s%n",
                producer, seconds, (gcMillis() - gc0) / 1e3);
        // A full compaction at each commit (its default) compares the same rows as the lookups.
        check(table, keys, producer.equals("none") ? 0 : expected, changelogRows);
        // Every full compaction rewrites the table: gigabytes a round, no snapshot expires them.
        TempDirs.deleteTree(location);
        return seconds;
    }

    private static void check(Table table, long keys, long expectedChangelog, long changelog)
            throws Exception {
        long count = TableContents.countRows(table);
        if (count != keys || changelog != expectedChangelog) {
            throw new WrongResultException(
                    String.format(
                            "%,d keys left %,d rows and %,d changelog rows, expected %,d",
                            keys, count, changelog, expectedChangelog));
        }
    }

    /** Milliseconds the collectors spent so far (their pauses and concurrent work). */
    private static long gcMillis() {
        long millis = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, gc.getCollectionTime());
        }
        return millis;
    }

    private static RowType rowType() {
        return (RowType)
                DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                DataTypes.FIELD("k", DataTypes.INT()),
                                DataTypes.FIELD("s1", DataTypes.STRING()),
                                DataTypes.FIELD("s2", DataTypes.STRING()),
                                DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                DataTypes.FIELD("qty", DataTypes.INT()),
                                DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                DataTypes.FIELD("flag", DataTypes.BOOLEAN()))
                        .getLogicalType();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
