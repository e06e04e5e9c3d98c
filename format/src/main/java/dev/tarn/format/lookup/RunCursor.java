package dev.tarn.format.lookup;

import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The entries of one sorted source of a {@link SpillingBucketStore} (memory, or a spilled run) that
 * match a scan's key, in index-key order. Not thread-safe: one scan uses it.
 */
interface RunCursor {

    /** Whether it points at an entry that matches the key. */
    boolean valid() throws IOException;

    /** The entry's row (or a tombstone's key row), valid until {@link #next}. */
    BinaryRowData row();

    /** The normalized prefix of the entry's first index-key field. */
    long prefix();

    /** Whether the entry removes its key. */
    boolean tombstone();

    void next() throws IOException;
}
