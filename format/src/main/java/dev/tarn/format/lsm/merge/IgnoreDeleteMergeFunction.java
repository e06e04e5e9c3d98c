package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;

/**
 * Option {@code ignore-delete}: drops retractions before they reach the merge engine, as if they
 * had never been written. A key whose versions are all retractions has no result.
 */
final class IgnoreDeleteMergeFunction implements MergeFunction {

    private final MergeFunction engine;

    IgnoreDeleteMergeFunction(MergeFunction engine) {
        this.engine = engine;
    }

    @Override
    public void reset() {
        engine.reset();
    }

    @Override
    public void add(KeyValue kv) {
        if (!kv.isRetraction()) {
            engine.add(kv);
        }
    }

    @Nullable
    @Override
    public KeyValue result() {
        return engine.result();
    }
}
