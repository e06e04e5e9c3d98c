package dev.tarn.format.commit;

import dev.tarn.format.schema.TableConfig;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;

/**
 * How a commit retries after losing the race for the next snapshot id: at most {@code
 * commit.max-retries} more attempts, waiting {@code commit.retry-wait} doubled each time (up to 64
 * times the base) with jitter, so that committers that collided spread out. Only a lost race is
 * retried; every other failure ends the commit at once.
 */
record CommitRetry(String table, int maxRetries, long baseWaitMillis) {

    /**
     * One attempt: the commit's outcome (the new snapshot's id, or empty if nothing was left to
     * publish), or null if another committer won the snapshot id.
     */
    interface Attempt {
        @Nullable
        OptionalLong run(int attempt);
    }

    static CommitRetry of(String table, TableConfig.Commit config) {
        return new CommitRetry(
                table, config.maxRetries(), Math.max(1, config.retryWait().toMillis()));
    }

    /**
     * Runs {@code attempt} until it does not lose the race, and returns its outcome.
     *
     * @throws CommitConflictException if it lost the race {@code maxRetries + 1} times in a row
     */
    OptionalLong run(Attempt attempt) {
        for (int i = 0; ; i++) {
            OptionalLong outcome = attempt.run(i);
            if (outcome != null) {
                return outcome;
            }
            if (i >= maxRetries) {
                throw new CommitConflictException(
                        String.format(
                                "Cannot commit to table %s: lost the race for a new snapshot %d"
                                        + " times in a row (commit.max-retries = %d); other"
                                        + " writers commit too often",
                                table, i + 1, maxRetries));
            }
            sleep(baseWaitMillis << Math.min(i, 6));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis + ThreadLocalRandom.current().nextLong(millis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitConflictException("Interrupted while retrying a commit");
        }
    }
}
