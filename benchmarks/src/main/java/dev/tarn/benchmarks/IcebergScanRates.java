package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.write.TableWrite;
import dev.tarn.testing.SparkIcebergReader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

/**
 * The last part of {@code --iceberg-commit}, for information: the full scan rate of an append table
 * with Iceberg metadata by Tarn's own scan and by Iceberg's reader in Spark ({@link
 * SparkIcebergReader}).
 */
final class IcebergScanRates {

    /** Full scans of each reader; the first warms up and is not counted. */
    private static final int SCANS = 3;

    private IcebergScanRates() {}

    /**
     * Full scan rates of one append table of {@code rows} rows (with Iceberg metadata where Tarn
     * takes the option): Tarn's own scan, one thread, and Spark's Iceberg reader, local[2], each
     * the median of the scans after a warm-up.
     */
    static void print(long rows, Path warehouse, PrintStream out) throws Exception {
        Path dir = Files.createDirectories(warehouse.resolve("scan"));
        @Nullable String refusal = null;
        Table table;
        try {
            table = TarnIcebergCommits.create(dir, true);
        } catch (IcebergCommitTarget.OptionNotAvailableException e) {
            refusal = IcebergCommitBenchmark.NOT_AVAILABLE;
            table = TarnIcebergCommits.create(dir, false);
        }
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < rows; id++) {
                write.write(GenericRowData.of(id, StringData.fromString("v" + id)));
            }
            table.newCommit("bench").commit(CommitRequest.of(1, write.prepareCommit()));
        }
        List<Double> tarnSeconds = new ArrayList<>();
        scan(table, rows); // warm-up
        for (int i = 1; i < SCANS; i++) {
            tarnSeconds.add(scan(table, rows));
        }
        out.printf("%nFull scan of an append table of %,d rows%n", rows);
        out.printf("%-34s %,14.0f rows/s%n", "Tarn scan, 1 thread", rows / median(tarnSeconds));
        if (refusal != null) {
            out.printf("%-34s %s%n", "Iceberg reader (Spark, local[2])", refusal);
            return;
        }
        SparkIcebergReader spark = new SparkIcebergReader().view("t", dir.toString());
        for (int i = 0; i < SCANS; i++) {
            spark.query("SELECT count(*), sum(id), sum(length(v)) FROM t");
        }
        List<List<String>> results = spark.run();
        for (List<String> result : results) {
            if (!result.get(0).startsWith("[" + rows + ", ")) {
                throw new WrongResultException(
                        "Spark's scan returned " + result + ", expected " + rows + " rows");
            }
        }
        List<Double> sparkSeconds = new ArrayList<>();
        spark.queryMillis().stream().skip(1).forEach(ms -> sparkSeconds.add(ms / 1e3));
        out.printf(
                "%-34s %,14.0f rows/s%n",
                "Iceberg reader (Spark, local[2])", rows / median(sparkSeconds));
    }

    /** Seconds of one full scan, after checking its row count. */
    private static double scan(Table table, long rows) throws Exception {
        long t0 = System.nanoTime();
        long count = TableContents.countRows(table);
        if (count != rows) {
            throw new WrongResultException(
                    String.format("Tarn's scan returned %,d rows, expected %,d", count, rows));
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
