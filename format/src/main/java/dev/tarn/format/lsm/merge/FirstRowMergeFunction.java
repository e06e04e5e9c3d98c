package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;

/**
 * Merge engine {@code first-row}: the oldest non-retraction version wins and later versions never
 * change it; retractions are ignored, so a key seen once stays forever. Null when only retractions
 * were added.
 */
final class FirstRowMergeFunction implements MergeFunction {

    @Nullable private KeyValue first;

    @Override
    public void reset() {
        first = null;
    }

    @Override
    public void add(KeyValue kv) {
        if (first == null && !kv.isRetraction()) {
            first = kv;
        }
    }

    @Nullable
    @Override
    public KeyValue result() {
        return first;
    }
}
