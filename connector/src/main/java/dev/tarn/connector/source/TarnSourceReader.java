package dev.tarn.connector.source;

import dev.tarn.format.read.TableRead;
import java.util.ArrayList;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.table.data.RowData;

/**
 * A source subtask: its splits are read by one {@link TarnSplitReader} on a fetcher thread, and the
 * task thread only emits rows and tracks each split's position, which is what a checkpoint holds. A
 * bounded read asks the enumerator for a split when it starts and whenever it finishes one; a read
 * that follows the table is sent its splits and reports each finished one, so that a consumer's
 * recorded position never passes a split still being read.
 */
final class TarnSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                RowBatch, RowData, TarnSplit, TarnSplitState> {

    private final boolean pull;

    TarnSourceReader(SourceReaderContext context, TableRead read, long limit, boolean pull) {
        super(
                () -> new TarnSplitReader(read, limit),
                new TarnRecordEmitter(),
                new Configuration(),
                context);
        this.pull = pull;
    }

    @Override
    public void start() {
        super.start();
        if (pull) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, TarnSplitState> finished) {
        if (pull) {
            context.sendSplitRequest();
        } else {
            context.sendSourceEventToCoordinator(
                    new SplitsFinished(new ArrayList<>(finished.keySet())));
        }
    }

    @Override
    protected TarnSplitState initializedState(TarnSplit split) {
        return new TarnSplitState(split);
    }

    @Override
    protected TarnSplit toSplitType(String splitId, TarnSplitState state) {
        return state.toSplit();
    }
}
