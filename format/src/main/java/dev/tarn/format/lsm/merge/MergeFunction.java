package dev.tarn.format.lsm.merge;

import dev.tarn.format.lsm.KeyValue;
import javax.annotation.Nullable;

/**
 * Folds all versions of one key into the key's current state: the merge engine of a primary-key
 * table ({@code merge-engine}). For each key the caller calls {@link #reset()}, then {@link
 * #add(KeyValue)} for every version in sequence order (oldest first), then {@link #result()}.
 *
 * <p>Contract with the run merges that call it (the sort buffer's in {@code lsm.sort}, the tree's
 * in {@code lsm.tree}): every key value passed to {@code add}, and its row, stay valid until the
 * next {@code reset()}, so an implementation may keep references instead of copies; the result
 * stays valid until the next {@code reset()} too. Not thread-safe.
 */
public interface MergeFunction {

    /** Starts a new key, forgetting the previous one. */
    void reset();

    /** Adds the next version of the current key. */
    void add(KeyValue kv);

    /**
     * The merged state of the key, or null when the key has no row (for example only retractions
     * were added to an engine that ignores them). A result of a retraction kind is a tombstone:
     * kept by compactions that do not reach the last level, dropped by the others and by reads.
     */
    @Nullable
    KeyValue result();
}
