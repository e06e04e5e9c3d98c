package dev.tarn.benchmarks;

import org.apache.flink.table.data.RowData;

/**
 * Writes rows into one table and publishes them, through a system's own Java API in this JVM: when
 * {@link #commit} returns, the snapshot is visible to readers. One writer and one commit user for
 * its whole life, as a streaming writer job has. Not thread-safe.
 */
public interface InProcessWriter extends AutoCloseable {

    /** Adds a row (its row kind is the kind of change) to the next commit. */
    void write(RowData row) throws Exception;

    /** Publishes the rows written since the last commit as one new snapshot. */
    void commit() throws Exception;

    /** Discards what was written since the last commit. */
    @Override
    void close() throws Exception;
}
