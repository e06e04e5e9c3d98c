package dev.tarn.connector.source;

import dev.tarn.format.read.Split;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A {@link Split} as Flink tracks it, with the reader's position: the number of rows of the split
 * already emitted, which a restored reader skips.
 */
public record TarnSplit(String id, Split split, long recordsToSkip) implements SourceSplit {

    @Override
    public String splitId() {
        return id;
    }

    TarnSplit advancedTo(long emitted) {
        return new TarnSplit(id, split, emitted);
    }
}
