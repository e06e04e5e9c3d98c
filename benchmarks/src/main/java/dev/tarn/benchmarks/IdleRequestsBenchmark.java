package dev.tarn.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

/**
 * File-system requests per second of an idle streaming reader with default options: a table of
 * {@value #COMMITS} small commits in a warehouse on {@link CountingFileSystem}, a streaming {@code
 * SELECT} that has read all of them, then {@link #IDLE} without a commit, counting every call on
 * the warehouse's files. What an object store would bill a reader that waits for data.
 */
final class IdleRequestsBenchmark {

    private static final int COMMITS = 10;
    private static final int ROWS_PER_COMMIT = FreshnessBenchmark.ROWS_PER_COMMIT;

    /** Long enough for a reader probing every second to show it 10 times. */
    static final Duration IDLE = Duration.ofSeconds(10);

    /** After the last row, so a reader's read-ahead or clean-up after catching up is done. */
    private static final long CAUGHT_UP_MILLIS = 1000;

    private static final Duration STALL = Duration.ofSeconds(60);
    private static final String SINK = "idle_arrivals";

    /** The calls an idle reader made, by kind, over {@code seconds}. */
    record Idle(double seconds, Map<String, Long> calls) {
        double requestsPerSecond() {
            return calls.values().stream().mapToLong(Long::longValue).sum() / seconds;
        }
    }

    private final LakeSystem system;
    private final FileSystemRequests requests;
    private int tables;

    /**
     * @param system over a warehouse on {@link CountingFileSystem}
     * @param requests the calls on that warehouse
     */
    IdleRequestsBenchmark(LakeSystem system, FileSystemRequests requests) {
        this.system = system;
        this.requests = requests;
    }

    StreamRun<Idle> run() throws Exception {
        String table = "idle_" + (++tables);
        TableEnvironment env = SessionCluster.environment(true, 1);
        system.addCatalog(env);
        String columns = "batch_id INT, n INT, v STRING";
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + columns
                        + ") WITH ('connector' = 'bench-arrivals')");
        env.executeSql("CREATE TABLE " + system.table(table) + " (" + columns + ")");
        try (InProcessWriter writer = system.writer(table)) {
            for (int batch = 0; batch < COMMITS; batch++) {
                for (int n = 0; n < ROWS_PER_COMMIT; n++) {
                    writer.write(GenericRowData.of(batch, n, StringData.fromString("idle")));
                }
                writer.commit();
            }
        }
        Arrivals arrivals = ArrivalSinkFactory.expect(SINK, (long) COMMITS * ROWS_PER_COMMIT, true);
        StreamingJob job;
        try {
            job =
                    StreamingJob.start(
                            env, "INSERT INTO " + SINK + " SELECT * FROM " + system.table(table));
        } catch (StreamingJob.Refused e) {
            return StreamRun.fellShort(e.getMessage());
        }
        try (job) {
            Optional<String> caughtUp =
                    job.await(arrivals, () -> arrivals.total() >= arrivals.target(), STALL);
            if (caughtUp.isPresent()) {
                FreshnessBenchmark.check(arrivals, COMMITS - 1, false);
                return StreamRun.fellShort(caughtUp.get() + " (before it was idle)");
            }
            Thread.sleep(CAUGHT_UP_MILLIS);
            Optional<String> endedFirst = job.howItEnded();
            if (endedFirst.isPresent()) {
                FreshnessBenchmark.check(arrivals, COMMITS - 1, true);
                return StreamRun.fellShort(
                        String.format(
                                "ended early: the job %s once it had read the table's %,d rows:"
                                        + " there is no idle reader to count",
                                endedFirst.get(), arrivals.total()));
            }
            requests.reset();
            long t0 = System.nanoTime();
            Thread.sleep(IDLE.toMillis());
            Map<String, Long> calls = requests.byKind();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Optional<String> ended = job.howItEnded();
            FreshnessBenchmark.check(arrivals, COMMITS - 1, true);
            if (ended.isPresent()) {
                return StreamRun.fellShort(
                        "ended early: the job " + ended.get() + " while it was to sit idle");
            }
            return StreamRun.of(new Idle(seconds, calls));
        }
    }
}
