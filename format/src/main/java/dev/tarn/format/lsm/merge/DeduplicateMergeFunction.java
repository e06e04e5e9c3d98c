package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;

/**
 * Merge engine {@code deduplicate}: the newest version wins. If it is a retraction the result is
 * that retraction, a tombstone, rather than null, so that a compaction above the last level keeps
 * hiding older versions of the key in the runs below it; the caller drops it where nothing lies
 * below.
 */
final class DeduplicateMergeFunction implements MergeFunction {

    @Nullable private KeyValue latest;

    @Override
    public void reset() {
        latest = null;
    }

    @Override
    public void add(KeyValue kv) {
        latest = kv;
    }

    @Nullable
    @Override
    public KeyValue result() {
        return latest;
    }
}
