package dev.tarn.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;

/**
 * Freshness of a streaming {@code SELECT} with default options: from the moment a commit is
 * published to the moment its first row reaches the job's sink, the source's only downstream
 * operator. A new append table per run; batch 0 is committed before the job starts and read in its
 * full phase, which shows the reader is up; then commits of {@value #ROWS_PER_COMMIT} rows each,
 * {@value #MIN_GAP_MILLIS}-{@value #MAX_GAP_MILLIS} ms apart (random, seeded), through the system's
 * Java API in this JVM. A commit's publish time is taken when the commit call returns; every row
 * carries its commit's {@code batch_id}. Checked: every batch arrives, each row exactly once.
 */
final class FreshnessBenchmark {

    static final int COMMITS = 100;
    private static final int WARM_UP_COMMITS = 10;
    static final int ROWS_PER_COMMIT = 10;
    static final int MIN_GAP_MILLIS = 100;
    static final int MAX_GAP_MILLIS = 300;

    /** Paimon's default discovery interval is 10 s: a reader may well be silent that long. */
    private static final Duration STALL = Duration.ofSeconds(60);

    /** How long the sink is watched for duplicates after the last expected row. */
    static final long SETTLE_MILLIS = 500;

    private static final String COLUMNS = "batch_id INT, n INT, v STRING";
    private static final String SINK = "fresh_arrivals";

    /** Seconds from publish to first arrival over the commits of one run. */
    record Freshness(double p50, double p99, double max) {
        static Freshness of(List<Double> seconds) {
            List<Double> sorted = new ArrayList<>(seconds);
            Collections.sort(sorted);
            int n = sorted.size();
            return new Freshness(
                    sorted.get(n / 2),
                    sorted.get((int) Math.ceil(n * 0.99) - 1),
                    sorted.get(n - 1));
        }
    }

    private final LakeSystem system;
    private final Random gaps = new Random(42);
    private int tables;

    FreshnessBenchmark(LakeSystem system) {
        this.system = system;
    }

    /** One run: a new table, a streaming job over it, then {@code commits} commits. */
    StreamRun<Freshness> run(boolean warmUp) throws Exception {
        int commits = warmUp ? WARM_UP_COMMITS : COMMITS;
        String table = "fresh_" + (++tables);
        TableEnvironment env = SessionCluster.environment(true, 1);
        system.addCatalog(env);
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + COLUMNS
                        + ") WITH ('connector' = 'bench-arrivals')");
        env.executeSql("DROP TABLE IF EXISTS " + system.table(table));
        env.executeSql("CREATE TABLE " + system.table(table) + " (" + COLUMNS + ")");
        Arrivals arrivals = ArrivalSinkFactory.expect(SINK, (commits + 1L) * ROWS_PER_COMMIT, true);
        long[] published = new long[commits + 1];
        try (InProcessWriter writer = system.writer(table)) {
            commit(writer, 0);
            StreamingJob job;
            try {
                job =
                        StreamingJob.start(
                                env,
                                "INSERT INTO " + SINK + " SELECT * FROM " + system.table(table));
            } catch (StreamingJob.Refused e) {
                return StreamRun.fellShort(e.getMessage());
            }
            try (job) {
                Optional<String> up =
                        job.await(arrivals, () -> arrivals.firstArrival(0) != null, STALL);
                if (up.isPresent()) {
                    check(arrivals, commits, false);
                    return StreamRun.fellShort(up.get() + " (before the first measured commit)");
                }
                for (int batch = 1; batch <= commits; batch++) {
                    Thread.sleep(
                            MIN_GAP_MILLIS + gaps.nextInt(MAX_GAP_MILLIS - MIN_GAP_MILLIS + 1));
                    if (job.ended()) {
                        break;
                    }
                    published[batch] = commit(writer, batch);
                }
                Optional<String> all =
                        job.await(arrivals, () -> arrivals.total() >= arrivals.target(), STALL);
                if (all.isEmpty()) {
                    // A row delivered twice may come after the last one expected.
                    Thread.sleep(SETTLE_MILLIS);
                }
                check(arrivals, commits, all.isEmpty());
                if (all.isPresent()) {
                    return StreamRun.fellShort(all.get());
                }
            }
        }
        List<Double> seconds = new ArrayList<>();
        for (int batch = 1; batch <= commits; batch++) {
            seconds.add((arrivals.firstArrival(batch) - published[batch]) / 1e9);
        }
        return StreamRun.of(Freshness.of(seconds));
    }

    /** Writes and commits one batch; returns when it was published ({@link System#nanoTime}). */
    private static long commit(InProcessWriter writer, int batch) throws Exception {
        for (int n = 0; n < ROWS_PER_COMMIT; n++) {
            writer.write(
                    GenericRowData.of(batch, n, StringData.fromString("batch " + batch + "/" + n)));
        }
        writer.commit();
        return System.nanoTime();
    }

    /**
     * Fails unless every batch that arrived brought its rows exactly once, as insertions, and (if
     * {@code complete}) every batch arrived.
     */
    static void check(Arrivals arrivals, int lastBatch, boolean complete) {
        Map<Long, Integer> batches = arrivals.batchRows();
        for (Map.Entry<Long, Integer> batch : batches.entrySet()) {
            if (batch.getKey() < 0
                    || batch.getKey() > lastBatch
                    || batch.getValue() != ROWS_PER_COMMIT) {
                throw new WrongResultException(
                        String.format(
                                "batch %d brought %d rows to the sink, expected %d of each batch"
                                        + " 0 to %d",
                                batch.getKey(), batch.getValue(), ROWS_PER_COMMIT, lastBatch));
            }
        }
        if (arrivals.rows(RowKind.INSERT) != arrivals.total()) {
            throw new WrongResultException(
                    String.format(
                            "%,d of the %,d rows of an append table arrived as other changes than"
                                    + " insertions",
                            arrivals.total() - arrivals.rows(RowKind.INSERT), arrivals.total()));
        }
        if (complete
                && (batches.size() != lastBatch + 1 || arrivals.total() != arrivals.target())) {
            throw new WrongResultException(
                    String.format(
                            "%d of batches 0 to %d arrived: %s",
                            batches.size(), lastBatch, batches.keySet()));
        }
    }
}
