package dev.tarn.format.write;

import java.io.IOException;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * The writer of one bucket of one partition within a {@link TableWrite}: rows in, and at each
 * commit the files it wrote since the last one, as {@link CommitMessage}s. One implementation per
 * table kind (an append table's rolling files, a primary-key table's LSM tree). Not thread-safe.
 */
interface BucketWriter {

    /** Adds a row; in a primary-key table its kind is its kind of change. */
    void write(RowData row) throws IOException;

    /**
     * Closes the open files and returns what changed since the last call (nothing if nothing did).
     * At the end of the input ({@code endOfInput}) running work is finished so it is included.
     */
    List<CommitMessage> prepareCommit(boolean endOfInput) throws IOException;

    /** Rewrites the bucket into one sorted run; the result comes with the next prepareCommit. */
    void compactFully() throws IOException;

    /** Deletes every file not yet handed out by {@link #prepareCommit}. */
    void close();
}
