package dev.tarn.connector.source;

import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;

/** A reader's report to the enumerator that it has read these splits to their end. */
record SplitsFinished(List<String> splitIds) implements SourceEvent {

    private static final long serialVersionUID = 1L;

    SplitsFinished {
        splitIds = List.copyOf(splitIds);
    }
}
