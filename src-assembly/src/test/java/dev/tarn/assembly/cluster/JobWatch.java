package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * Waits on one job of the cluster, by its pipeline name, failing at once (with the job's exceptions
 * and the cluster's logs) when the job fails, instead of waiting out the timeout.
 */
final class JobWatch {

    /** Whether a failure the job recovered from still fails the wait. */
    enum Failures {
        FAIL_ON_ANY,
        FAIL_ON_TERMINAL
    }

    /** How often the job's state is asked for, sparing the JobManager. */
    private static final long JOB_POLL_MILLIS = 500;

    /** How often a condition is checked by default. */
    static final Duration POLL = Duration.ofMillis(JOB_POLL_MILLIS);

    private final LocalFlinkCluster cluster;
    private final String name;

    JobWatch(LocalFlinkCluster cluster, String name) {
        this.cluster = cluster;
        this.name = name;
    }

    /** The job, once the cluster lists it. */
    Optional<ClusterRest.Job> job() throws IOException {
        return cluster.rest().jobs().stream().filter(j -> j.name().equals(name)).findFirst();
    }

    String id() throws IOException {
        return job().orElseThrow(() -> new IllegalStateException("No job named " + name)).id();
    }

    /** Waits until the job is in {@code state}. */
    void awaitState(String state, Duration timeout, Failures failures)
            throws IOException, InterruptedException {
        await(
                "job " + name + " to be " + state,
                () -> job().map(j -> j.state().equals(state)).orElse(false),
                timeout,
                POLL,
                failures);
    }

    /** A condition over the job's outcome, checked until it holds. */
    interface Check {
        boolean holds() throws IOException, InterruptedException;
    }

    /**
     * Waits until {@code condition}, checked every {@code poll}, holds while the job lives; the
     * job's state is checked every half second.
     */
    void await(String what, Check condition, Duration timeout, Duration poll, Failures failures)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long jobEvery = Math.max(1, JOB_POLL_MILLIS / poll.toMillis());
        for (long polls = 0; !condition.holds(); polls++) {
            Thread.sleep(poll.toMillis());
            if (polls % jobEvery != 0) {
                continue;
            }
            Optional<ClusterRest.Job> job = job();
            if (job.isPresent()) {
                String state = job.get().state();
                boolean failed = state.equals("FAILED") || state.equals("CANCELED");
                if (failed || (failures == Failures.FAIL_ON_ANY && hasFailed(job.get()))) {
                    throw new IllegalStateException(
                            "Job "
                                    + name
                                    + " failed ("
                                    + state
                                    + ") while waiting for "
                                    + what
                                    + ":\n"
                                    + cluster.rest().exceptions(job.get().id())
                                    + "\n"
                                    + cluster.logTails(30));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Timed out after "
                                + timeout
                                + " waiting for "
                                + what
                                + " (job "
                                + job.map(ClusterRest.Job::state).orElse("not listed")
                                + ")\n"
                                + job.map(j -> cluster.rest().exceptions(j.id())).orElse("")
                                + "\n"
                                + cluster.logTails(30));
            }
        }
    }

    private boolean hasFailed(ClusterRest.Job job) throws IOException {
        return !cluster.rest().failures(job.id()).isEmpty();
    }
}
