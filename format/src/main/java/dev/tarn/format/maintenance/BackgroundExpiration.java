package dev.tarn.format.maintenance;

import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.table.TableContext;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot expiration on one daemon thread of its own, so that a committer's publish never waits
 * for it: a trigger while a run waits is absorbed, so a burst of commits costs one more run, and
 * each run removes at most {@code snapshot.expire.limit} snapshots, so a backlog drains over the
 * following commits instead of stalling one. Failures are logged: the next trigger tries again.
 * After a commit, a run that {@link OldestSnapshot} shows can remove nothing reads nothing.
 */
final class BackgroundExpiration implements SnapshotLifecycle.Expirer {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundExpiration.class);

    /**
     * A run in flight at close may finish this long (a run is bounded by its limit); then it is
     * interrupted, which is safe at any point (the next run finishes its work).
     */
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final TableContext table;
    private final ExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Consumer<SnapshotLifecycle.ExpireResult> listener;

    /** The snapshot the last commit published (0: none seen), for {@link OldestSnapshot}. */
    private final AtomicLong latest = new AtomicLong();

    /** What the last run learnt of the oldest snapshot; null until a run succeeded. */
    @Nullable private volatile OldestSnapshot oldest;

    /** Runs that skipped their I/O as nothing could expire (tests). */
    private final AtomicLong skipped = new AtomicLong();

    /**
     * @param listener told of every run that did not fail, on the expiration thread
     */
    BackgroundExpiration(TableContext table, Consumer<SnapshotLifecycle.ExpireResult> listener) {
        this.table = table;
        this.listener = listener;
        this.thread =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "tarn-expire-" + table.name());
                            t.setDaemon(true);
                            return t;
                        });
    }

    /** After a commit: remembers the snapshot it published, then asks for a run. */
    @Override
    public void afterCommit(TableCommit.Result result) {
        if (result.alreadyCommitted()) {
            latest.set(0); // Its id is the user's last snapshot, maybe not the table's: look.
        } else {
            result.snapshotId().ifPresent(latest::set);
        }
        trigger();
    }

    @Override
    public void trigger() {
        if (queued.compareAndSet(false, true)) {
            try {
                thread.execute(this::run);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                queued.set(false);
            }
        }
    }

    private void run() {
        queued.set(false);
        long now = System.currentTimeMillis();
        SnapshotExpiration.Settings settings = SnapshotLifecycle.automatic(table, now);
        OldestSnapshot known = oldest;
        long last = latest.get();
        if (known != null && last > 0 && known.nothingCanExpire(last, settings, now)) {
            skipped.incrementAndGet();
            return;
        }
        try {
            SnapshotExpiration expiration = new SnapshotExpiration(table);
            SnapshotLifecycle.ExpireResult result = expiration.run(settings, now);
            oldest =
                    expiration
                            .oldestKept()
                            .map(s -> new OldestSnapshot(s.id(), s.commit().timeMillis(), now))
                            .orElse(null);
            latest.accumulateAndGet(expiration.latestSeen(), Math::max);
            listener.accept(result);
            if (result.snapshots() > 0 || result.tags() > 0) {
                LOG.info("{}", result.summary());
            }
        } catch (RuntimeException e) {
            oldest = null;
            LOG.warn(
                    "Background expiration of table {} failed; the next commit tries again",
                    table.name(),
                    e);
        }
    }

    /** Waits until the runs asked for so far are done (tests). */
    void drain() throws Exception {
        thread.submit(() -> {}).get();
    }

    /** How many runs skipped their I/O since this expirer began, nothing being able to expire. */
    long skippedRuns() {
        return skipped.get();
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
