package dev.tarn.format.maintenance;

import dev.tarn.format.table.TableContext;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot expiration on one daemon thread of its own, so that a committer's publish never waits
 * for it: a trigger while a run waits is absorbed, so a burst of commits costs one more run, and
 * each run removes at most {@code snapshot.expire.limit} snapshots, so a backlog drains over the
 * following commits instead of stalling one. Failures are logged: the next trigger tries again.
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
        try {
            SnapshotLifecycle.ExpireResult result = SnapshotLifecycle.expire(table);
            listener.accept(result);
            if (result.snapshots() > 0 || result.tags() > 0) {
                LOG.info("{}", result.summary());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Background expiration of table {} failed; the next commit tries again",
                    table.name(),
                    e);
        }
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
