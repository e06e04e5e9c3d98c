package dev.tarn.connector.sink;

import org.apache.flink.api.connector.sink2.Committer;

/** A commit request that records what the committer signalled. */
final class FakeCommitRequest implements Committer.CommitRequest<TarnCommittable> {
    private final TarnCommittable committable;
    boolean alreadyCommitted;

    FakeCommitRequest(TarnCommittable committable) {
        this.committable = committable;
    }

    @Override
    public TarnCommittable getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return 0;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        throw new AssertionError("unexpected failure", t);
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        throw new AssertionError("unexpected failure", t);
    }

    @Override
    public void retryLater() {
        throw new AssertionError("unexpected retry");
    }

    @Override
    public void updateAndRetryLater(TarnCommittable committable) {
        throw new AssertionError("unexpected retry");
    }

    @Override
    public void signalAlreadyCommitted() {
        alreadyCommitted = true;
    }
}
