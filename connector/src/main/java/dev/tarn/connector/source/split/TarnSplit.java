package dev.tarn.connector.source.split;

import dev.tarn.format.read.Split;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A {@link Split} as Flink tracks it, with the reader's position in it: the file the last emitted
 * row came from and the rows of that file emitted so far. A restored reader seeks there, skipping
 * the files and row groups before it without reading them.
 *
 * @param fileIndex the split's file the position is in
 * @param rowsInFile rows of that file already emitted
 */
public record TarnSplit(String id, Split split, int fileIndex, long rowsInFile)
        implements SourceSplit {

    /** A split not started yet. */
    public static TarnSplit of(String id, Split split) {
        return new TarnSplit(id, split, 0, 0);
    }

    @Override
    public String splitId() {
        return id;
    }

    TarnSplit at(int file, long rows) {
        return new TarnSplit(id, split, file, rows);
    }
}
