package dev.tarn.connector.source.reader;

import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * The rows a source subtask may still hand over under a pushed-down {@code LIMIT}, shared by its
 * lanes: each takes rows before it hands them over, so the subtask as a whole stops at the limit
 * (Flink applies the limit again to all subtasks' rows). Thread-safe.
 */
public final class RowLimit {

    /** Null for no limit: then every take is granted without touching shared memory. */
    @Nullable private final AtomicLong left;

    /** A limit of {@code rows}; {@link Long#MAX_VALUE} for none. */
    public RowLimit(long rows) {
        this.left = rows == Long.MAX_VALUE ? null : new AtomicLong(Math.max(0, rows));
    }

    /** Takes up to {@code wanted} rows; returns how many were granted, 0 once none are left. */
    long take(long wanted) {
        if (left == null) {
            return wanted;
        }
        while (true) {
            long before = left.get();
            long granted = Math.min(before, wanted);
            if (granted <= 0 || left.compareAndSet(before, before - granted)) {
                return Math.max(0, granted);
            }
        }
    }

    /** Gives back rows taken but not handed over. */
    void giveBack(long rows) {
        if (left != null && rows > 0) {
            left.addAndGet(rows);
        }
    }

    /** Whether no row is left. */
    boolean reached() {
        return left != null && left.get() <= 0;
    }
}
