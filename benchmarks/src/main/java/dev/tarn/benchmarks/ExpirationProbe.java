package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The cost of snapshot expiration through the format's maintenance entry point, without Flink: an
 * append table of 10 buckets gets {@code files / 10} commits of 40 rows (a file in nearly every
 * bucket), then a full compaction replaces every file, and one expiration removes all snapshots but
 * the last, so it reads every expired snapshot's lists and deletes every data file the commits
 * wrote. Prints the wall time of the expiration per round; checks that one snapshot and one file
 * per bucket are left and that the table still reads every row.
 */
final class ExpirationProbe {

    private static final int BUCKETS = 10;

    /** Rows per commit: enough that nearly every bucket gets a file in every commit. */
    private static final int ROWS_PER_COMMIT = 40;

    private ExpirationProbe() {}

    static void run(int files, int runs, PrintStream out) throws Exception {
        int commits = Math.max(1, files / BUCKETS);
        java.nio.file.Path dir = Files.createTempDirectory("tarn-expiration-probe");
        try {
            expire(dir, commits, runs, out);
        } finally {
            TempDirs.deleteTree(dir);
        }
    }

    private static void expire(java.nio.file.Path dir, int commits, int runs, PrintStream out)
            throws Exception {
        List<Double> seconds = new ArrayList<>();
        for (int round = 0; round < runs; round++) {
            java.nio.file.Path location = dir.resolve("round-" + round);
            Table table = table(location);
            long setup = System.nanoTime();
            for (int c = 0; c < commits; c++) {
                try (TableWrite write = table.newWrite()) {
                    for (int r = 0; r < ROWS_PER_COMMIT; r++) {
                        long id = (long) c * ROWS_PER_COMMIT + r;
                        write.write(GenericRowData.of(id, id * 2));
                    }
                    table.newCommit("probe").commit(CommitRequest.of(c, write.prepareCommit()));
                }
            }
            long written = parquetFiles(location);
            table.maintenance().compactFully();
            long before = parquetFiles(location);
            double setupSeconds = (System.nanoTime() - setup) / 1e9;
            long start = System.nanoTime();
            SnapshotLifecycle.ExpireResult result =
                    table.maintenance()
                            .expireSnapshots(
                                    new SnapshotLifecycle.ExpireRequest(
                                            1, 1, Long.MAX_VALUE, Integer.MAX_VALUE),
                                    System.currentTimeMillis());
            double elapsed = (System.nanoTime() - start) / 1e9;
            check(table, location, result, commits, before);
            seconds.add(elapsed);
            out.printf(
                    "round %d: %,d data files written; expired %,d snapshots, deleted %,d data"
                            + " files and %,d manifest files in %.2f s (setup %.1f s)%n",
                    round,
                    written,
                    result.snapshots(),
                    result.dataFiles(),
                    result.metadataFiles(),
                    elapsed,
                    setupSeconds);
        }
        seconds.sort(null);
        out.printf(
                "Snapshot expiration, median over %d rounds of %,d snapshots: %.2f s%n",
                runs, commits, seconds.get(seconds.size() / 2));
    }

    private static Table table(java.nio.file.Path location) {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD("v", DataTypes.BIGINT()))
                                .getLogicalType();
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(location.toUri()),
                "probe.expiration",
                TableSchema.create(
                        type,
                        List.of(),
                        List.of(),
                        Map.of("bucket", String.valueOf(BUCKETS)),
                        null));
    }

    private static void check(
            Table table,
            java.nio.file.Path location,
            SnapshotLifecycle.ExpireResult result,
            int commits,
            long before)
            throws Exception {
        long left = parquetFiles(location);
        long live =
                table.metadata().files().liveFiles(table.metadata().latestSnapshot().get()).size();
        long rows = TableContents.countRows(table);
        long expectedRows = (long) commits * ROWS_PER_COMMIT;
        if (result.snapshots() != commits
                || result.dataFiles() != before - left
                || left != live
                || rows != expectedRows) {
            throw new WrongResultException(
                    String.format(
                            "Expiration left %d data files (%d live) and %d rows of %d, removed %d"
                                    + " snapshots of %d and %d data files of %d",
                            left,
                            live,
                            rows,
                            expectedRows,
                            result.snapshots(),
                            commits,
                            result.dataFiles(),
                            before - live));
        }
    }

    private static long parquetFiles(java.nio.file.Path location) throws Exception {
        try (Stream<java.nio.file.Path> all = Files.walk(location)) {
            return all.filter(p -> p.toString().endsWith(".parquet")).count();
        }
    }
}
