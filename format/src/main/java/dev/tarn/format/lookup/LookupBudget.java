package dev.tarn.format.lookup;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tarn.format.schema.LookupOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The memory and local disk that the bucket stores of one {@code TableLookup} share: {@code
 * lookup.cache-max-memory-size} and {@code lookup.cache-max-disk-size}, and the cache of decoded
 * blocks of their spilled runs (an eighth of the memory, at most {@value #MAX_CACHE_BYTES} bytes,
 * taken from the memory limit). A store reserves memory before it allocates it; when a reservation
 * fails it asks {@link #makeRoom}, which spills the store holding the most memory: another one if
 * it can lock it without waiting, else the asking store itself. Always: reservations add up to at
 * most the limit, but for {@link Room#FORCE} (a store that holds nothing while every other one is
 * busy may take one allocation beyond it). Thread-safe.
 */
final class LookupBudget {

    /** The disk option's key, named in the error a store raises when a spill does not fit. */
    static final String DISK_OPTION = LookupOptions.LOOKUP_CACHE_MAX_DISK_SIZE.key();

    static final long MAX_CACHE_BYTES = 16L << 20;

    /** What a store whose reservation failed does next. */
    enum Room {
        /** Another store spilled: reserve again. */
        FREED,
        /** Spill yourself, then reserve again. */
        SPILL_SELF,
        /** Nothing can be spilled now: take the memory beyond the limit. */
        FORCE
    }

    private final long memoryLimit;
    private final long diskLimit;
    private final Cache<SpillRun.BlockKey, SpillBlock> blocks;
    private final Set<SpillingBucketStore> stores = ConcurrentHashMap.newKeySet();
    private long memoryUsed;
    private long diskUsed;

    /**
     * @param memoryLimit bytes of memory for rows and blocks
     * @param diskLimit bytes of local disk for spilled runs, {@link Long#MAX_VALUE} for no limit
     */
    LookupBudget(long memoryLimit, long diskLimit) {
        if (memoryLimit <= 0 || diskLimit <= 0) {
            throw new IllegalArgumentException(
                    "A lookup cache needs a positive memory and disk limit, got "
                            + memoryLimit
                            + " and "
                            + diskLimit
                            + " bytes");
        }
        long cacheBytes = Math.min(MAX_CACHE_BYTES, memoryLimit / 8);
        this.memoryLimit = memoryLimit - cacheBytes;
        this.diskLimit = diskLimit;
        this.blocks =
                Caffeine.newBuilder()
                        .maximumWeight(Math.max(1, cacheBytes))
                        .weigher((SpillRun.BlockKey k, SpillBlock b) -> b.weight())
                        .build();
    }

    Cache<SpillRun.BlockKey, SpillBlock> blocks() {
        return blocks;
    }

    void register(SpillingBucketStore store) {
        stores.add(store);
    }

    void forget(SpillingBucketStore store) {
        stores.remove(store);
    }

    /** Whether {@code bytes} fit the limit at all, with nothing else reserved. */
    boolean couldFit(long bytes) {
        return bytes <= memoryLimit;
    }

    /** Reserves memory if it is there; false, reserving nothing, if not. */
    synchronized boolean tryReserve(long bytes) {
        if (memoryUsed + bytes > memoryLimit) {
            return false;
        }
        memoryUsed += bytes;
        return true;
    }

    /** Reserves memory beyond the limit ({@link Room#FORCE}). */
    synchronized void forceReserve(long bytes) {
        memoryUsed += bytes;
    }

    synchronized void release(long bytes) {
        memoryUsed -= bytes;
    }

    /**
     * Frees memory for {@code requester}, which holds its own lock: spills the largest other store
     * that can be locked at once, or tells the requester to spill itself if it holds the most (or
     * anything, when no other can be spilled now).
     */
    synchronized Room makeRoom(SpillingBucketStore requester) {
        // Sizes read once: stores update theirs outside this lock.
        record Held(SpillingBucketStore store, long bytes) {}
        List<Held> bySize = new ArrayList<>();
        for (SpillingBucketStore store : stores) {
            long bytes = store.memoryBytes();
            if (bytes > 0) {
                bySize.add(new Held(store, bytes));
            }
        }
        bySize.sort(Comparator.comparingLong(Held::bytes).reversed());
        for (Held held : bySize) {
            SpillingBucketStore store = held.store();
            if (store == requester) {
                return Room.SPILL_SELF;
            }
            if (store.trySpill()) {
                return Room.FREED;
            }
        }
        return requester.memoryBytes() > 0 ? Room.SPILL_SELF : Room.FORCE;
    }

    /**
     * Reserves local disk for a block of a run being written.
     *
     * @throws IOException naming {@link #DISK_OPTION}, its value and the bytes needed, if the block
     *     does not fit
     */
    synchronized void reserveDisk(long bytes) throws IOException {
        if (diskUsed + bytes > diskLimit) {
            throw new IOException(
                    String.format(
                            "The lookup cache needs %d bytes of local disk (%d in use and %d more"
                                    + " for a spilled run), beyond %s = %d bytes; raise %s or"
                                    + " lookup.cache-max-memory-size",
                            diskUsed + bytes,
                            diskUsed,
                            bytes,
                            DISK_OPTION,
                            diskLimit,
                            DISK_OPTION));
        }
        diskUsed += bytes;
    }

    synchronized void releaseDisk(long bytes) {
        diskUsed -= bytes;
    }

    synchronized long memoryUsed() {
        return memoryUsed;
    }

    synchronized long diskUsed() {
        return diskUsed;
    }
}
