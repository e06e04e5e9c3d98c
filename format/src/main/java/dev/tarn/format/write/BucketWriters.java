package dev.tarn.format.write;

import dev.tarn.format.manifest.BucketId;
import java.io.IOException;

/**
 * How one kind of table writes its buckets: opens the writer of a bucket, and runs what all buckets
 * of one {@link TableWrite} share at a commit (a primary-key table's buckets share one write buffer
 * budget, the threads that flush and compact them, and a view of the table they follow). Chosen
 * once per table write.
 */
interface BucketWriters extends AutoCloseable {

    BucketWriter open(BucketId bucket) throws IOException;

    /** Before the buckets hand out their changes at a commit. */
    default void beforeCommit(boolean endOfInput) throws IOException {}

    /** After the buckets handed out their changes at a commit. */
    default void afterCommit(boolean endOfInput) throws IOException {}

    /** See {@link TableWrite#deferRestore}. */
    default void deferRestore() {}

    /** See {@link TableWrite#spillUnder}. */
    default void spillUnder(java.nio.file.Path parent) {}

    /** Bytes written by flushes and compactions so far. */
    default TableWrite.WrittenBytes writtenBytes() {
        return new TableWrite.WrittenBytes(0, 0);
    }

    /** Bytes the buckets' write buffer holds now. */
    default long bufferBytes() {
        return 0;
    }

    /**
     * What the buckets look like now, after a commit's hand-out; {@code bufferBytes} is what the
     * buffer held when the commit began.
     */
    default WriteStats stats(long bufferBytes) {
        return WriteStats.NONE;
    }

    /** Releases what the buckets share; each bucket's writer is closed by its owner first. */
    @Override
    default void close() {}
}
