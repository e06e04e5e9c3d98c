package dev.tarn.connector.source.split;

import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader's report to the enumerator that it has read these splits to their end.
 *
 * @param watermark for a declared watermark: the reader's watermark over every row it has emitted,
 *     or null if it has none yet (or the read declares none)
 */
public record SplitsFinished(List<String> splitIds, @Nullable Long watermark)
        implements SourceEvent {

    private static final long serialVersionUID = 1L;

    public SplitsFinished {
        splitIds = List.copyOf(splitIds);
    }
}
