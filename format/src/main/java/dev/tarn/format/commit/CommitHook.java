package dev.tarn.format.commit;

/**
 * Work that follows a commit inside the format (expiration today), run by {@link TableCommit} on
 * the committing thread after every {@link TableCommit#commit} call that did not fail, whether or
 * not it published a snapshot (a retried commit found published still lets the hook catch up). A
 * hook that needs time does it off that thread; a hook's failure is its own to report and never
 * fails the commit, which is already published.
 */
public interface CommitHook extends AutoCloseable {

    /** Called after a commit call; {@code result} says what it published. */
    void afterCommit(TableCommit.Result result);

    /** Releases what the hook holds (a thread); called once, when the committer closes. */
    @Override
    default void close() {}
}
