package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * How long publishing one snapshot takes (what a streaming committer does once a checkpoint
 * completes), with few and with many snapshots already in the table: manifest merging must keep it
 * flat. Each commit adds one small file, as a checkpoint of a slow stream would. Checkpoints
 * without and with the ledger of prepared files alternate, so both meet the same load. With the
 * ledger, the sink records the checkpoint's files while the checkpoint is taken, before the commit
 * starts: the commit's latency is timed alone (that is what the committer waits for), the record's
 * apart, and the CPU time of the whole process covers both (the committing thread, the record write
 * and the expiration after the commit; the JVM's own threads too, which both configurations share).
 */
final class CommitLatencyBenchmark {

    private static final int MEASURED = 200;

    /**
     * Idle time after each commit, inside its CPU measurement, for the work it starts on other
     * threads (a background expiration run takes a few milliseconds).
     */
    private static final long SETTLE_MILLIS = 20;

    /** The CPU time of every thread of this process so far. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static void run(java.nio.file.Path warehouse, List<Integer> historySizes) throws Exception {
        RowType type =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new BigIntType(), VarCharType.STRING_TYPE
                        },
                        new String[] {"id", "v"});
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(warehouse.resolve("commit-latency").toUri()),
                        "bench.commits",
                        TableSchema.create(type, List.of(), List.of(), Map.of(), null));
        TableCommit commit = table.newCommit("bench");
        long identifier = 0;
        System.out.println();
        System.out.printf(
                "%-20s %8s %8s %8s %13s %13s %13s %9s %12s%n",
                "existing snapshots",
                "p50 ms",
                "p99 ms",
                "max ms",
                "ledger p50 ms",
                "ledger p99 ms",
                "record p50 ms",
                "cpu ms",
                "ledger cpu ms");
        PendingCommits ledger = table.pendingCommits();
        for (int history : historySizes) {
            while (identifier < history) {
                commit.commit(CommitRequest.of(identifier++, oneFile(table, identifier)));
            }
            // Commits without and with the ledger of prepared files alternate, under one load.
            List<Double> millis = new ArrayList<>();
            List<Double> ledgered = new ArrayList<>();
            List<Double> records = new ArrayList<>();
            double[] cpu = new double[2];
            for (int i = 0; i < 2 * MEASURED; i++) {
                List<CommitMessage> messages = oneFile(table, identifier);
                boolean withLedger = i % 2 == 1;
                long cpu0 = processCpuNanos();
                if (withLedger) {
                    long r0 = System.nanoTime();
                    record(ledger, identifier, messages);
                    records.add((System.nanoTime() - r0) / 1e6);
                }
                long t0 = System.nanoTime();
                commit.commit(CommitRequest.of(identifier++, messages));
                (withLedger ? ledgered : millis).add((System.nanoTime() - t0) / 1e6);
                // The expiration after the commit runs on its own thread: let it finish inside.
                Thread.sleep(SETTLE_MILLIS);
                cpu[withLedger ? 1 : 0] += (processCpuNanos() - cpu0) / 1e6 / MEASURED;
            }
            Collections.sort(ledgered);
            Collections.sort(records);
            // Bring the history back to the next size's start without counting these.
            identifier = Math.max(identifier, history);
            Collections.sort(millis);
            System.out.printf(
                    "%-20s %8.2f %8.2f %8.2f %13.2f %13.2f %13.2f %9.2f %12.2f%n",
                    history,
                    millis.get(millis.size() / 2),
                    millis.get((int) Math.ceil(millis.size() * 0.99) - 1),
                    millis.get(millis.size() - 1),
                    ledgered.get(ledgered.size() / 2),
                    ledgered.get((int) Math.ceil(ledgered.size() * 0.99) - 1),
                    records.get(records.size() / 2),
                    cpu[0],
                    cpu[1]);
        }
    }

    /**
     * Records {@code messages} as the files of checkpoint {@code identifier}, as the streaming sink
     * does while the checkpoint is taken.
     */
    static void record(PendingCommits ledger, long identifier, List<CommitMessage> messages) {
        ledger.record(
                "bench",
                identifier,
                new TreeMap<>(Map.of(identifier, messages)),
                System.currentTimeMillis());
    }

    /** The commit messages of one small file holding row {@code id}. */
    static List<CommitMessage> oneFile(Table table, long id) throws Exception {
        try (TableWrite write = table.newWrite()) {
            write.write(GenericRowData.of(id, StringData.fromString("v" + id)));
            return write.prepareCommit();
        }
    }

    private CommitLatencyBenchmark() {}
}
