package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;

/**
 * {@code --probe filtered-scan}: the append benchmark's table read in-process on one thread (and
 * its column-decode helper), without Flink, through the read seam as the source's fetcher reads: a
 * full scan, then {@code k < 10} (1% of the rows, which no statistics prune) read with the rows
 * returned whole for the engine to filter, and with the rows filtered as they are decoded. Prints
 * medians of the process's CPU time (the reading thread and its decode helper) and the wall time of
 * each; each run checks its row count.
 */
final class FilteredScanProbe {

    private static final Predicate K_BELOW_10 =
            new Predicate.Leaf(Predicate.Op.LT, 1, "k", new IntType(), List.of(10));

    private FilteredScanProbe() {}

    static void run(int rows, int runs, PrintStream out) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("tarn-filtered-scan");
        BenchGenFactory.Rows gen = new BenchGenFactory.Rows(rows, 0);
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        "bench.events",
                        TableSchema.create(
                                SchemaScanProbe.TYPE,
                                List.of(),
                                List.of(),
                                Map.of(
                                        "target-file-size",
                                        "256mb",
                                        "parquet.block.size",
                                        "134217728"),
                                null));
        long matching = 0;
        try (TableWrite write = table.newWrite()) {
            for (int i = 0; i < rows; i++) {
                RowData row = gen.row(i);
                write.write(row);
                if (!row.isNullAt(1) && row.getInt(1) < 10) {
                    matching++;
                }
            }
            table.newCommit("probe").commit(CommitRequest.of(1, write.prepareCommit()));
        }
        out.printf(
                "Filtered-scan probe: %,d rows, k < 10 matches %,d; the process's CPU seconds"
                        + " (the reader and its decode helper) and wall seconds per read%n",
                rows, matching);
        String[] names = {"full scan", "k < 10, rows returned whole", "k < 10, rows filtered"};
        long[] expected = {rows, rows, matching};
        for (int w = 0; w < 3; w++) {
            for (int m = 0; m < names.length; m++) {
                scan(table, m, expected[m]);
            }
        }
        double[][] cpu = new double[names.length][runs];
        double[][] wall = new double[names.length][runs];
        for (int r = 0; r < runs; r++) {
            for (int m = 0; m < names.length; m++) {
                double[] took = scan(table, m, expected[m]);
                cpu[m][r] = took[0];
                wall[m][r] = took[1];
            }
        }
        for (int m = 0; m < names.length; m++) {
            out.printf(
                    "result: %-28s median %.3f s CPU, %.3f s wall (CPU runs %s)%n",
                    names[m],
                    SchemaScanProbe.median(cpu[m]),
                    SchemaScanProbe.median(wall[m]),
                    Arrays.toString(cpu[m]));
        }
        out.printf(
                "result: k < 10, filtered over returned whole: %.2fx less CPU, %.2fx less wall%n",
                SchemaScanProbe.median(cpu[1]) / SchemaScanProbe.median(cpu[2]),
                SchemaScanProbe.median(wall[1]) / SchemaScanProbe.median(wall[2]));
    }

    /**
     * One read of every split: mode 0 without a filter, 1 with it but every row returned, 2 with
     * rows filtered in the reader. Returns the process's CPU seconds and the wall seconds; fails
     * unless it returned {@code expected} rows.
     */
    private static double[] scan(Table table, int mode, long expected) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        long count = 0;
        BinaryRowBatch batch = new BinaryRowBatch(4096);
        TableRead read = table.newRead().withFilter(mode == 0 ? null : K_BELOW_10);
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split, mode == 2)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    count++;
                    batch.clear();
                    count += reader.transferBuffered(batch, 4096);
                }
            }
        }
        double[] took = {(os.getProcessCpuTime() - cpu0) / 1e9, (System.nanoTime() - wall0) / 1e9};
        if (count != expected) {
            throw new WrongResultException(
                    String.format(
                            "read %d of %s returned %,d rows, expected %,d",
                            mode, table.name(), count, expected));
        }
        return took;
    }
}
