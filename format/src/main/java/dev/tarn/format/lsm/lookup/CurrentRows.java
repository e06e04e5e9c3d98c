package dev.tarn.format.lsm.lookup;

import dev.tarn.format.lsm.KeyValueSchema;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The current row of every key of some buckets, in memory, for a streaming read that looks up the
 * row each change of a primary-key table replaces: one {@link LookupIndex} per bucket, all within
 * one {@link LookupMemory}, so that when the memory runs out the least recently used bucket gives
 * way (it is then read from its files again when next needed). Rows are of the read's row type,
 * keyed by its key columns. Not thread-safe but for the memory, which several may share: one
 * fetcher thread uses each.
 */
public final class CurrentRows {

    private final KeyValueSchema schema;
    private final LookupMemory memory;

    /**
     * @param schema the rows' type and key columns
     * @param memoryBytes the most memory all buckets' rows may take
     */
    public CurrentRows(KeyValueSchema schema, long memoryBytes) {
        this(schema, new LookupMemory(memoryBytes));
    }

    /**
     * Current rows of more buckets, in the memory of {@code sharing}: the buckets of both give way
     * to each other. The memory is thread-safe, so each may be used on a thread of its own.
     */
    public CurrentRows(KeyValueSchema schema, CurrentRows sharing) {
        this(schema, sharing.memory);
    }

    private CurrentRows(KeyValueSchema schema, LookupMemory memory) {
        this.schema = schema;
        this.memory = memory;
    }

    /** A new bucket, holding nothing until {@link Bucket#reset}. */
    public Bucket newBucket() {
        return new Bucket();
    }

    /** Orders two rows of the read's type by their keys. */
    public int compareKeys(RowData a, RowData b) {
        return schema.keys().compare(a, b);
    }

    /** Bytes the buckets' rows take now. */
    public long usedBytes() {
        return memory.used();
    }

    /**
     * The current rows of one bucket. Use it between {@link #open} and {@link #close}, which keep
     * it from being evicted meanwhile.
     */
    public final class Bucket {

        private final LookupIndex index = new LookupIndex(schema, memory);
        private boolean tooLarge;

        private Bucket() {}

        /** Starts a use; whether it holds the bucket's rows (false: evicted, or never built). */
        public boolean open() {
            memory.pin(index);
            return !index.isDropped();
        }

        /**
         * Drops what it holds and starts empty, to be filled with {@link #put}; false if the bucket
         * was too large for the memory before (or not even an empty one fits): it stays empty.
         */
        public boolean reset() {
            if (tooLarge) {
                return false;
            }
            if (!index.reset()) {
                tooLarge = index.tooLarge();
                return false;
            }
            return true;
        }

        /** Whether it holds the bucket's rows: not evicted, not out of memory. */
        public boolean isLive() {
            return !index.isDropped();
        }

        /**
         * The current row of the key of {@code row}, or null; valid until the next call. REQUIRES:
         * {@link #isLive}.
         */
        @Nullable
        public BinaryRowData find(RowData row) {
            return index.find(row);
        }

        /**
         * Makes {@code row} the current row of the key of the last {@link #find}; false if it does
         * not fit: the bucket is then dropped (and stays so if it alone is too large).
         */
        public boolean put(BinaryRowData row) {
            if (index.put(row)) {
                return true;
            }
            tooLarge = index.tooLarge();
            return false;
        }

        /** Removes the key of the last {@link #find}, if it found it. */
        public void remove() {
            index.remove();
        }

        /** Ends a use: the memory may evict it now. */
        public void close() {
            memory.unpin(index);
        }

        /** Frees its memory for good. */
        public void release() {
            memory.pin(index);
            index.release();
            memory.forget(index);
        }
    }
}
