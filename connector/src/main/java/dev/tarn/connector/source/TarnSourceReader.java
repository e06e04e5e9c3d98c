package dev.tarn.connector.source;

import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

/**
 * Reads the splits assigned to one source subtask, one at a time, asking the enumerator for the
 * next when it starts one (so the next is there when this one is done). Its checkpoint holds the
 * open split with the number of rows already emitted, and the splits not started, so a restore
 * neither repeats nor skips a row.
 */
final class TarnSourceReader implements SourceReader<RowData, TarnSplit> {

    /**
     * Rows emitted per {@link #pollNext} call: amortizes the call, keeps the mailbox responsive.
     */
    private static final int ROWS_PER_POLL = 512;

    private final SourceReaderContext context;
    private final TableRead read;
    private final long limit;
    private final Queue<TarnSplit> splits = new ArrayDeque<>();

    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreSplits;
    private boolean requested;
    private TarnSplit current;
    private TableRead.SplitReader currentReader;
    private long emittedInSplit;
    private long emittedTotal;

    TarnSourceReader(SourceReaderContext context, TableRead read, long limit) {
        this.context = context;
        this.read = read;
        this.limit = limit;
    }

    @Override
    public void start() {
        requestSplit();
    }

    private void requestSplit() {
        if (!requested && !noMoreSplits) {
            requested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
        for (int i = 0; i < ROWS_PER_POLL; i++) {
            if (emittedTotal >= limit) {
                closeCurrent();
                return InputStatus.END_OF_INPUT;
            }
            if (currentReader == null && !openNext()) {
                if (noMoreSplits && splits.isEmpty()) {
                    return InputStatus.END_OF_INPUT;
                }
                requestSplit();
                if (available.isDone()) {
                    available = new CompletableFuture<>();
                }
                return InputStatus.NOTHING_AVAILABLE;
            }
            RowData row = currentReader.next();
            if (row == null) {
                closeCurrent();
                continue;
            }
            emittedInSplit++;
            emittedTotal++;
            output.collect(row);
        }
        return InputStatus.MORE_AVAILABLE;
    }

    private boolean openNext() throws IOException {
        TarnSplit next = splits.poll();
        if (next == null) {
            return false;
        }
        current = next;
        // Ask for the next split now, so it arrives while this one is read.
        requestSplit();
        currentReader = read.open(next.split());
        emittedInSplit = 0;
        for (long i = 0; i < next.recordsToSkip(); i++) {
            if (currentReader.next() == null) {
                break;
            }
            emittedInSplit++;
        }
        return true;
    }

    private void closeCurrent() throws IOException {
        if (currentReader != null) {
            currentReader.close();
            currentReader = null;
            current = null;
        }
    }

    @Override
    public List<TarnSplit> snapshotState(long checkpointId) {
        List<TarnSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.advancedTo(emittedInSplit));
        }
        state.addAll(splits);
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<TarnSplit> newSplits) {
        splits.addAll(newSplits);
        requested = false;
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() throws Exception {
        closeCurrent();
    }
}
