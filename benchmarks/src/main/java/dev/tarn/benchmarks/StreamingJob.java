package dev.tarn.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.util.ExceptionUtils;

/**
 * A streaming INSERT on the session cluster, which runs until cancelled, and the benchmark's wait
 * for rows at its {@link ArrivalSinkFactory} sink. A wait never hangs: it ends when the rows are
 * there, when the job ends without them (a source that stopped following its table, or a failure),
 * or when no row arrives for a while; each but the first is reported as the reason the rows fell
 * short. Closing cancels the job and waits until it is gone, so runs do not overlap.
 */
final class StreamingJob implements AutoCloseable {

    /** How often a wait looks at the job when the rows it waits for are not there yet. */
    private static final long POLL_MILLIS = 5;

    private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(60);

    private final JobClient client;

    private StreamingJob(JobClient client) {
        this.client = client;
    }

    /** The planner refused a statement: the system does not support what it asks for. */
    static final class Refused extends Exception {

        Refused(ValidationException cause) {
            super("refused at planning: " + describe(cause), cause);
        }

        /**
         * The first sentence of the planner's message and of its root cause's, which names what was
         * refused (the rest may list every option there is).
         */
        static String describe(Throwable e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String message = firstSentence(e.getMessage());
            return root == e ? message : message + " " + firstSentence(root.getMessage());
        }

        private static String firstSentence(String text) {
            if (text == null) {
                return "";
            }
            String line = text.lines().findFirst().orElse("");
            int end = line.indexOf(". ");
            return end < 0 ? line : line.substring(0, end + 1);
        }
    }

    /** Submits {@code insert}; the job is running (or scheduled) when this returns. */
    static StreamingJob start(TableEnvironment env, String insert) throws Refused {
        try {
            return new StreamingJob(env.executeSql(insert).getJobClient().orElseThrow());
        } catch (ValidationException e) {
            throw new Refused(e);
        }
    }

    /** Whether the job has ended: finished, failed or cancelled. */
    boolean ended() {
        return client.getJobExecutionResult().isDone();
    }

    /** How the job ended, or empty while it runs. */
    Optional<String> howItEnded() {
        CompletableFuture<JobExecutionResult> result = client.getJobExecutionResult();
        if (!result.isDone()) {
            return Optional.empty();
        }
        try {
            result.get();
            return Optional.of("finished");
        } catch (ExecutionException | RuntimeException e) {
            Throwable root = ExceptionUtils.stripExecutionException(e);
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return Optional.of("failed: " + root);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("unknown (interrupted)");
        }
    }

    /**
     * Waits until {@code done} holds.
     *
     * @param arrivals what the job's sink received, whose growth shows the job is still delivering
     * @param stall how long without a new row the wait gives up after
     * @return empty once {@code done} holds, else why it never will: the job ended, or stalled
     */
    Optional<String> await(Arrivals arrivals, BooleanSupplier done, Duration stall)
            throws InterruptedException {
        long seen = -1;
        long lastProgress = System.nanoTime();
        while (!done.getAsBoolean()) {
            Optional<String> ended = howItEnded();
            if (ended.isPresent() && !done.getAsBoolean()) {
                return Optional.of(
                        String.format(
                                "ended early: the job %s after %,d of %,d rows had arrived, instead"
                                        + " of running on",
                                ended.get(), arrivals.total(), arrivals.target()));
            }
            long total = arrivals.total();
            if (total != seen) {
                seen = total;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
                return Optional.of(
                        String.format(
                                "stalled: no row arrived for %d s, after %,d of %,d rows",
                                stall.toSeconds(), total, arrivals.target()));
            }
            arrivals.awaitTarget(POLL_MILLIS);
        }
        return Optional.empty();
    }

    /** Cancels the job unless it has ended, and waits until it has. */
    @Override
    public void close() throws Exception {
        if (!ended()) {
            client.cancel().get(CANCEL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        try {
            client.getJobExecutionResult().get(CANCEL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            // A cancelled job's result is an exception; its end is all that is awaited here.
        }
    }
}
