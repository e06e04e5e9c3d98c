package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Commit latency of a streaming committer while expiration works through a backlog: as a committer
 * does, each commit of one small file triggers the table's background expiration, and commits come
 * {@value #COMMIT_INTERVAL_MILLIS} ms apart, as with a checkpoint interval of that length (a
 * hundredth of the 10 s of a typical streaming job). The table keeps its last 10 snapshots; {@code
 * backlog} more are committed with expiration off. Measured first while every run expires {@code
 * snapshot.expire.limit} (10) of them and their files beside the commits, then, on the same table
 * once the rest of the backlog is expired, with no backlog (each run expires about one). Every row
 * stays live, so the second phase's table is the larger. Prints the p50, p99 and max of each phase,
 * the ratio of the p99s and the time of one run of the backlog alone; checks that the backlog
 * shrank while measured and that the table reads its rows afterwards.
 */
final class ExpirationBacklogBenchmark {

    private static final int MEASURED = 300;

    /** Time between the starts of two commits: a short checkpoint interval. */
    private static final long COMMIT_INTERVAL_MILLIS = 100;

    private static final int RETAINED = 10;

    static void run(java.nio.file.Path warehouse, int backlog) throws Exception {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
                        new String[] {"id", "v"});
        // The backlog is built with a retention that keeps every snapshot (the expiration after
        // each commit would otherwise remove them as they come), then measured with one that
        // expires all but the last few.
        Table building =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(warehouse.resolve("expiration-backlog").toUri()),
                        "bench.backlog",
                        TableSchema.create(
                                type,
                                List.of(),
                                List.of(),
                                Map.of(
                                        "snapshot.time-retained",
                                        "1 h",
                                        "snapshot.num-retained.min",
                                        String.valueOf(RETAINED)),
                                null));
        long[] identifier = {0};
        try (TableCommit setup = building.newCommit("bench")) {
            for (int i = 0; i < RETAINED + backlog; i++) {
                setup.commit(
                        CommitRequest.of(
                                identifier[0]++,
                                CommitLatencyBenchmark.oneFile(building, identifier[0])));
            }
        }
        building.alter(List.of(new SchemaChange.SetOption("snapshot.time-retained", "1 ms")));
        Table table = Table.load(building.io(), building.location(), building.name());
        TableCommit commit = table.newCommit("bench");
        System.out.println();
        System.out.printf(
                "Commit latency with background expiration (%d commits %d ms apart per phase):%n",
                MEASURED, COMMIT_INTERVAL_MILLIS);
        System.out.printf("%-44s %10s %10s %10s%n", "phase", "p50 ms", "p99 ms", "max ms");
        long before = snapshotCount(table);
        double busy;
        try (SnapshotLifecycle.Expirer expirer = table.maintenance().backgroundExpiration()) {
            busy =
                    measure(
                            table,
                            commit,
                            expirer,
                            identifier,
                            String.format("backlog of %,d snapshots to expire", before - RETAINED));
        }
        long after = snapshotCount(table);
        if (after >= before) {
            throw new WrongResultException(
                    String.format(
                            "the backlog did not shrink while measured: %d snapshots before, %d"
                                    + " after",
                            before, after));
        }
        long t0 = System.nanoTime();
        table.maintenance().expireSnapshots();
        System.out.printf(
                "one expiration run of the backlog (10 snapshots), alone: %.1f ms%n",
                (System.nanoTime() - t0) / 1e6);
        // The same table (as many live files and more) once its backlog is gone.
        while (snapshotCount(table) > RETAINED + 1) {
            table.maintenance()
                    .expireSnapshots(
                            new SnapshotLifecycle.ExpireRequest(null, null, null, 1000),
                            System.currentTimeMillis());
        }
        double quiet;
        try (SnapshotLifecycle.Expirer expirer = table.maintenance().backgroundExpiration()) {
            quiet = measure(table, commit, expirer, identifier, "no backlog");
        }
        long rows = rowCount(table);
        if (rows != identifier[0]) {
            throw new WrongResultException(
                    String.format("the table holds %,d rows, expected %,d", rows, identifier[0]));
        }
        System.out.printf(
                "p99 with the backlog over p99 without: %.2fx (%,d of the %,d snapshots left when"
                        + " the backlog's commits ended)%n",
                busy / quiet, after, before);
    }

    /** Commits {@link #MEASURED} times, triggering expiration after each; returns the p99. */
    private static double measure(
            Table table,
            TableCommit commit,
            SnapshotLifecycle.Expirer expirer,
            long[] identifier,
            String phase)
            throws Exception {
        List<Double> millis = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < MEASURED; i++) {
            List<CommitMessage> messages = CommitLatencyBenchmark.oneFile(table, identifier[0]);
            long due = start + i * COMMIT_INTERVAL_MILLIS * 1_000_000;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long t0 = System.nanoTime();
            commit.commit(CommitRequest.of(identifier[0]++, messages));
            millis.add((System.nanoTime() - t0) / 1e6);
            expirer.trigger();
        }
        Collections.sort(millis);
        double p99 = millis.get((int) Math.ceil(millis.size() * 0.99) - 1);
        System.out.printf(
                "%-44s %10.2f %10.2f %10.2f%n",
                phase, millis.get(millis.size() / 2), p99, millis.get(millis.size() - 1));
        return p99;
    }

    /** The rows of the table's latest snapshot, read through the format's read seam. */
    private static long rowCount(Table table) throws Exception {
        long rows = 0;
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                while (reader.next() != null) {
                    rows++;
                }
            }
        }
        return rows;
    }

    private static long snapshotCount(Table table) {
        var snapshots = table.metadata();
        return snapshots.latestSnapshotId().orElse(0)
                - snapshots.earliestSnapshotId().orElse(1)
                + 1;
    }

    private ExpirationBacklogBenchmark() {}
}
