package dev.tarn.format.lsm.lookup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The memory that the {@link LookupIndex}es of one table write's buckets share ({@code
 * lookup.cache-max-memory-size}). An index reserves memory before it allocates it; when the limit
 * is reached, the least recently used index that is not {@linkplain #pin pinned} is evicted (it
 * drops everything, and its bucket rebuilds it from its files when it needs it again). Always: the
 * reservations of the live indexes add up to at most the limit. Thread-safe: buckets flush on
 * several threads at a checkpoint.
 */
public final class LookupMemory {

    private final long limit;
    private long used;
    private long evictions;

    /** Every index holding memory, least recently pinned first; true while pinned. */
    private final LinkedHashMap<LookupIndex, Boolean> indexes =
            new LinkedHashMap<>(16, 0.75f, true);

    public LookupMemory(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException(
                    "Lookup memory needs a positive limit, got " + limit + " bytes");
        }
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    public synchronized long used() {
        return used;
    }

    /** How many indexes hold memory now (one per bucket with a lookup index). */
    public synchronized int indexes() {
        return indexes.size();
    }

    /** How many indexes it evicted so far. */
    public synchronized long evictions() {
        return evictions;
    }

    /**
     * Marks the index in use, so that it is not evicted until {@link #unpin}, and most recently
     * used. Its owner calls it before it looks at the index (an eviction may have emptied it).
     */
    synchronized void pin(LookupIndex index) {
        indexes.put(index, true);
    }

    synchronized void unpin(LookupIndex index) {
        if (indexes.containsKey(index)) {
            indexes.put(index, false);
        }
    }

    /**
     * Reserves {@code bytes} for {@code owner} (pinned), evicting other indexes that are not
     * pinned, least recently used first, until they fit.
     *
     * @return false if they do not fit even then; nothing is reserved
     */
    synchronized boolean reserve(LookupIndex owner, long bytes) {
        while (used + bytes > limit) {
            LookupIndex victim = null;
            for (Map.Entry<LookupIndex, Boolean> e : indexes.entrySet()) {
                if (e.getKey() != owner && !e.getValue()) {
                    victim = e.getKey();
                    break;
                }
            }
            if (victim == null) {
                return false;
            }
            indexes.remove(victim);
            victim.evicted();
            evictions++;
        }
        used += bytes;
        indexes.putIfAbsent(owner, false);
        return true;
    }

    /** Gives back {@code bytes} that {@code owner} reserved. */
    synchronized void release(long bytes) {
        used -= bytes;
    }

    /** The index is closed: it holds nothing and will not be pinned again. */
    synchronized void forget(LookupIndex index) {
        indexes.remove(index);
    }
}
