package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import dev.tarn.format.maintenance.TableCheck;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The cost of the maintenance walks over a long-lived table: {@code check_table} (shallow, and deep
 * once) and {@code remove_orphan_files} over a table of {@code rows} data files in 10 buckets, one
 * file per bucket per commit (so {@code rows / 10} snapshots), after 1,000 orphans are strewn over
 * its bucket and manifest directories. Every file is aged past the default threshold, so the
 * cleanup must tell orphans from referenced files by the metadata alone. Checks that the table is
 * whole before and after, and that exactly the orphans go.
 */
final class MaintenanceProbe {

    private static final int BUCKETS = 10;
    private static final int ORPHANS = 1_000;
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private static final Instant OLD = Instant.now().minus(Duration.ofDays(2));

    private MaintenanceProbe() {}

    static void run(int files, int runs, PrintStream out) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("tarn-maintenance-probe");
        int snapshots = Math.max(1, files / BUCKETS);
        long built = System.nanoTime();
        Table table = build(dir, snapshots);
        out.printf(
                "%,d snapshots, %,d data files in %d buckets (built in %.1f s), %,d orphans, %d"
                        + " rounds%n",
                snapshots, snapshots * BUCKETS, BUCKETS, seconds(built), ORPHANS, runs);
        check(table, false);
        List<Double> checks = new ArrayList<>();
        List<Double> cleanups = new ArrayList<>();
        List<Double> checkCpu = new ArrayList<>();
        List<Double> cleanupCpu = new ArrayList<>();
        for (int round = 0; round < runs; round++) {
            long start = System.nanoTime();
            long cpu = CPU.getCurrentThreadCpuTime();
            TableCheck.Result result = check(table, false);
            double check = seconds(start);
            checkCpu.add((CPU.getCurrentThreadCpuTime() - cpu) / 1e9);
            strewOrphans(dir, round);
            ageAll(dir);
            start = System.nanoTime();
            cpu = CPU.getCurrentThreadCpuTime();
            RemoveOrphanFiles.Result removed =
                    table.maintenance().removeOrphanFiles(null, false, false, Instant.now());
            double cleanup = seconds(start);
            cleanupCpu.add((CPU.getCurrentThreadCpuTime() - cpu) / 1e9);
            if (removed.files().size() != ORPHANS) {
                throw new IllegalStateException(
                        "remove_orphan_files removed "
                                + removed.files().size()
                                + " files, not the "
                                + ORPHANS
                                + " orphans");
            }
            check(table, false);
            checks.add(check);
            cleanups.add(cleanup);
            out.printf(
                    "round %d: check_table %.2f s (%,d files), remove_orphan_files %.2f s%n",
                    round, check, result.files(), cleanup);
        }
        long start = System.nanoTime();
        check(table, true);
        double deep = seconds(start);
        out.printf(
                "Maintenance, medians over %d rounds of %,d data files: check_table %.2f s (%.2f s"
                        + " CPU), remove_orphan_files %.2f s (%.2f s CPU); deep check_table once"
                        + " %.2f s%n",
                runs,
                snapshots * BUCKETS,
                median(checks),
                median(checkCpu),
                median(cleanups),
                median(cleanupCpu),
                deep);
        TempDirs.deleteTree(dir);
    }

    private static TableCheck.Result check(Table table, boolean deep) {
        TableCheck.Result result = table.maintenance().check(deep);
        if (!result.problems().isEmpty()) {
            throw new IllegalStateException("check_table found damage: " + result.summary());
        }
        return result;
    }

    private static Table build(java.nio.file.Path dir, int snapshots) throws IOException {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD("v", DataTypes.STRING()))
                                .getLogicalType();
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.resolve("t").toUri()),
                        "bench.t",
                        TableSchema.create(
                                type,
                                List.of(),
                                List.of(),
                                Map.of("bucket", String.valueOf(BUCKETS), "bucket-key", "id"),
                                null));
        var commit = table.newCommit("probe");
        for (int s = 0; s < snapshots; s++) {
            try (TableWrite write = table.newWrite()) {
                // 200 rows: every bucket gets some, so each commit adds one file per bucket.
                for (long id = (long) s * 1000; id < (long) s * 1000 + 200; id++) {
                    write.write(GenericRowData.of(id, StringData.fromString("v" + id)));
                }
                commit.commit(CommitRequest.of(s + 1, write.prepareCommit()));
            }
        }
        return table;
    }

    private static void strewOrphans(java.nio.file.Path dir, int round) throws IOException {
        java.nio.file.Path table = dir.resolve("t");
        for (int i = 0; i < ORPHANS; i++) {
            java.nio.file.Path file =
                    i % 10 == 0
                            ? table.resolve("manifest/manifest-orphan-" + round + "-" + i)
                            : table.resolve(
                                    "bucket-"
                                            + (i % BUCKETS)
                                            + "/data-orphan-"
                                            + round
                                            + "-"
                                            + i
                                            + ".parquet");
            Files.writeString(file, "orphan");
        }
    }

    private static void ageAll(java.nio.file.Path dir) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            for (java.nio.file.Path f : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(f, FileTime.from(OLD));
            }
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
