package dev.tarn.connector.source.split;

import dev.tarn.format.read.Split;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A {@link Split} as Flink tracks it, with the reader's position in it: the file the last emitted
 * row came from and the rows of that file emitted so far. A restored reader seeks there, skipping
 * the files and row groups before it without reading them.
 *
 * @param fileIndex the split's file the position is in
 * @param rowsInFile rows of that file already emitted
 * @param eventTime the commit time (epoch milliseconds) of the snapshot the split was planned from,
 *     the time its rows carry and the source's event-time lags measure from; {@link
 *     TimestampAssigner#NO_TIMESTAMP} for a split restored from a checkpoint without it
 * @param filtersRows whether the reader drops, within each decoded batch, the rows the pushed
 *     filter surely does not match, so that {@code rowsInFile} counts only the rows it keeps. A
 *     split restored at a position from a checkpoint older than this (split version 6) counted
 *     every row, and keeps reading every row so that its position stays right
 */
public record TarnSplit(
        String id, Split split, int fileIndex, long rowsInFile, long eventTime, boolean filtersRows)
        implements SourceSplit {

    /** A split not started yet, of a snapshot committed at {@code eventTime}. */
    public static TarnSplit of(String id, Split split, long eventTime) {
        return new TarnSplit(id, split, 0, 0, eventTime, true);
    }

    @Override
    public String splitId() {
        return id;
    }

    /** One line for logs: the id, the position and the split's own line. */
    @Override
    public String toString() {
        return String.format(
                "TarnSplit[%s at file %d, %d rows in%s, %s]",
                id, fileIndex, rowsInFile, filtersRows ? "" : ", every row read", split);
    }

    TarnSplit at(int file, long rows) {
        return new TarnSplit(id, split, file, rows, eventTime, filtersRows);
    }
}
