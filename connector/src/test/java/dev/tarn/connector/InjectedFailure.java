package dev.tarn.connector;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import java.io.Serializable;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * A failure a job's map function injects once, past a position of its input, but only once the
 * table it writes has published a snapshot: the restart then recovers from a checkpoint that was
 * committed, rather than silently starting over from an empty table. The state is static, so it
 * survives the job's restart; tests run one at a time and {@link #reset} it first.
 */
final class InjectedFailure implements Serializable {

    private static final long serialVersionUID = 1L;

    /** How often a task past the failure position looks for a snapshot, so reads stay rare. */
    private static final long CHECK_INTERVAL_MILLIS = 10;

    /** The latest snapshot when the failure struck; null until it struck. */
    private static final AtomicReference<Snapshot> LATEST_AT_FAILURE = new AtomicReference<>();

    private final String tablePath;
    private final long failAt;
    private long nextCheckMillis;

    /** Fails at the first input at or past {@code failAt} after table {@code tablePath} has one. */
    InjectedFailure(String tablePath, long failAt) {
        this.tablePath = tablePath;
        this.failAt = failAt;
    }

    static void reset() {
        LATEST_AT_FAILURE.set(null);
    }

    /** The latest snapshot of the table when the failure struck, or null if it did not strike. */
    @Nullable
    static Snapshot latestAtFailure() {
        return LATEST_AT_FAILURE.get();
    }

    /** Throws, once per test, if {@code position} is past the failure and a snapshot exists. */
    void check(long position) {
        if (position < failAt || LATEST_AT_FAILURE.get() != null) {
            return;
        }
        long now = System.currentTimeMillis();
        if (now < nextCheckMillis) {
            return;
        }
        nextCheckMillis = now + CHECK_INTERVAL_MILLIS;
        TableMetadata snapshots =
                Table.load(FileIO.flinkFileSystems(), new Path(tablePath), "t").metadata();
        OptionalLong latest = snapshots.latestSnapshotId();
        if (latest.isPresent()
                && LATEST_AT_FAILURE.compareAndSet(null, snapshots.snapshot(latest.getAsLong()))) {
            throw new IllegalStateException(
                    "Injected failure at input "
                            + position
                            + ", after snapshot "
                            + latest.getAsLong()
                            + " of "
                            + tablePath);
        }
    }
}
