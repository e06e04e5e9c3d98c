package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.testing.FlinkS3Plugin;
import dev.tarn.testing.S3MockServer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Requests and latency of commits to a table on S3, against a local S3-compatible server (S3Mock,
 * its own JVM on loopback): what one append commit and one compaction commit ask of the store, by
 * kind, counted on the server's side from its access log (so Flink's S3 file system and Tarn's SDK
 * client are both counted), and the append commit's latency. Only the commit is counted: writing
 * the data files before it, and planning and rewriting a compaction, are the writers' work. Usage:
 * {@code Benchmarks --s3-commit [--runs N]} (N measured commits, 100 by default).
 */
final class S3CommitBenchmark {

    private static final List<String> KINDS = List.of("GET", "HEAD", "PUT", "LIST", "DELETE");

    /** Commits before measuring: the JIT and the client's connections warm up. */
    private static final int WARM_UP = 20;

    /** The server writes a request's log line after answering it; wait for the last one. */
    private static final long LOG_SETTLE_MILLIS = 150;

    static void run(int measured) throws Exception {
        try (S3MockServer server = S3MockServer.start("bench")) {
            Map<String, String> settings = FlinkS3Plugin.settings(server);
            FlinkS3Plugin.initialize(settings);
            try {
                FileIO io = FileIO.flinkFileSystems(settings);
                RowType type =
                        RowType.of(
                                new org.apache.flink.table.types.logical.LogicalType[] {
                                    new BigIntType(), VarCharType.STRING_TYPE
                                },
                                new String[] {"id", "v"});
                Table table =
                        Table.create(
                                io,
                                new Path("s3://bench/lake/db.db/commits"),
                                "db.commits",
                                TableSchema.create(type, List.of(), List.of(), Map.of(), null));
                TableCommit commit = table.newCommit("bench");
                long identifier = 1;
                for (int i = 0; i < WARM_UP; i++, identifier++) {
                    commit.commit(
                            CommitRequest.of(
                                    identifier, CommitLatencyBenchmark.oneFile(table, identifier)));
                }
                // Checkpoints with and without the ledger of prepared files alternate, so that both
                // meet the same load: the ledger adds its record's PUT, written while the
                // checkpoint is taken, before the commit (timed alone, as the committer waits).
                PendingCommits ledger = table.pendingCommits();
                List<Map<String, Integer>> appends = new ArrayList<>();
                List<Map<String, Integer>> ledgered = new ArrayList<>();
                List<Double> millis = new ArrayList<>();
                List<Double> ledgeredMillis = new ArrayList<>();
                for (int i = 0; i < 2 * measured; i++, identifier++) {
                    List<CommitMessage> messages =
                            CommitLatencyBenchmark.oneFile(table, identifier);
                    long id = identifier;
                    boolean withLedger = i % 2 == 1;
                    long[] elapsed = new long[1];
                    Map<String, Integer> counted =
                            count(
                                    server,
                                    () -> {
                                        if (withLedger) {
                                            CommitLatencyBenchmark.record(ledger, id, messages);
                                        }
                                        long t0 = System.nanoTime();
                                        commit.commit(CommitRequest.of(id, messages));
                                        elapsed[0] = System.nanoTime() - t0;
                                        return null;
                                    });
                    (withLedger ? ledgered : appends).add(counted);
                    (withLedger ? ledgeredMillis : millis).add(elapsed[0] / 1e6);
                }
                FullCompaction.Plan plan =
                        table.maintenance().planFullCompaction(p -> true).orElseThrow();
                List<CommitMessage> rewritten = new ArrayList<>();
                try (FullCompaction.Compactor compactor = table.maintenance().newCompactor()) {
                    for (FullCompaction.Unit unit : plan.units()) {
                        rewritten.addAll(compactor.compact(unit));
                    }
                }
                Map<String, Integer> compaction =
                        count(server, () -> table.maintenance().publishCompaction(plan, rewritten));
                long latest = table.metadata().latestSnapshotId().orElseThrow();
                Map<String, Integer> idleProbe =
                        count(server, () -> table.metadata().snapshotExists(latest + 1));
                print(appends, compaction, idleProbe, millis, plan.units().size());
                row("append commit, ledger (mean)", mean(ledgered));
                row("append commit, ledger (max)", max(ledgered));
                Collections.sort(ledgeredMillis);
                System.out.printf(
                        "append commit latency with the ledger: p50 %.1f ms, p99 %.1f ms%n",
                        ledgeredMillis.get(ledgeredMillis.size() / 2),
                        ledgeredMillis.get((int) Math.ceil(ledgeredMillis.size() * 0.99) - 1));
            } finally {
                FlinkS3Plugin.reset();
            }
        }
    }

    /** The requests the server saw while {@code action} ran, by kind. */
    private static Map<String, Integer> count(S3MockServer server, Action action) throws Exception {
        Thread.sleep(LOG_SETTLE_MILLIS);
        int before = server.requests().size();
        action.run();
        Thread.sleep(LOG_SETTLE_MILLIS);
        List<String> all = server.requests();
        Map<String, Integer> kinds = new TreeMap<>();
        KINDS.forEach(k -> kinds.put(k, 0));
        for (String request : all.subList(before, all.size())) {
            kinds.merge(kind(request), 1, Integer::sum);
        }
        return kinds;
    }

    /** {@code GET /b/?list-type=2...} is a LIST; a multi-object delete (POST ?delete) a DELETE. */
    static String kind(String request) {
        String method = request.substring(0, request.indexOf(' '));
        if (method.equals("GET") && request.contains("list-type=")) {
            return "LIST";
        }
        if (method.equals("POST") && request.contains("?delete")) {
            return "DELETE";
        }
        return method;
    }

    private static void print(
            List<Map<String, Integer>> appends,
            Map<String, Integer> compaction,
            Map<String, Integer> idleProbe,
            List<Double> millis,
            int units) {
        System.out.println();
        System.out.printf("%-34s", "requests per commit");
        for (String k : KINDS) {
            System.out.printf(" %7s", k);
        }
        System.out.printf(" %7s%n", "total");
        row("append commit (mean of " + appends.size() + ")", mean(appends));
        row("append commit (max)", max(appends));
        row("compaction commit (" + units + " bucket)", toDouble(compaction));
        row("idle discovery probe", toDouble(idleProbe));
        Collections.sort(millis);
        System.out.printf(
                "%nappend commit latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d commits)%n",
                millis.get(millis.size() / 2),
                millis.get((int) Math.ceil(millis.size() * 0.99) - 1),
                millis.get(millis.size() - 1),
                millis.size());
    }

    private static void row(String name, Map<String, Double> counts) {
        System.out.printf("%-34s", name);
        double total = 0;
        for (String k : KINDS) {
            double v = counts.getOrDefault(k, 0.0);
            total += v;
            System.out.printf(" %7.2f", v);
        }
        System.out.printf(" %7.2f%n", total);
    }

    private static Map<String, Double> mean(List<Map<String, Integer>> samples) {
        Map<String, Double> mean = new TreeMap<>();
        for (Map<String, Integer> s : samples) {
            s.forEach((k, v) -> mean.merge(k, (double) v / samples.size(), Double::sum));
        }
        return mean;
    }

    private static Map<String, Double> max(List<Map<String, Integer>> samples) {
        Map<String, Double> max = new TreeMap<>();
        for (Map<String, Integer> s : samples) {
            int total = s.values().stream().mapToInt(Integer::intValue).sum();
            double best = max.values().stream().mapToDouble(Double::doubleValue).sum();
            if (total > best) {
                max = toDouble(s);
            }
        }
        return max;
    }

    private static Map<String, Double> toDouble(Map<String, Integer> counts) {
        Map<String, Double> d = new TreeMap<>();
        counts.forEach((k, v) -> d.put(k, (double) v));
        return d;
    }

    /** An action that may throw. */
    interface Action {
        Object run() throws Exception;
    }

    private S3CommitBenchmark() {}
}
