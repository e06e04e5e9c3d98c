package dev.tarn.connector.lookup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.AsyncLookupFunction;
import org.apache.flink.table.functions.FunctionContext;

/**
 * An asynchronous lookup join against a Tarn table ({@code lookup.async}): while the subtask's rows
 * are loading, each lookup runs on one of the subtask's {@code lookup.async-thread-number} threads
 * (it may wait for its bucket or read the table's files) and completes its future there; once they
 * are loaded, a lookup answers from them at once on the calling thread, with a completed future,
 * since handing a lookup that does not block to another thread and back costs more than the lookup.
 * Flink keeps the output ordered or not, as the LOOKUP hint's {@code output-mode} asks.
 *
 * <p>Public because Flink instantiates only public function classes; made by {@link
 * TarnLookupJoin}.
 */
public final class TarnAsyncLookupFunction extends AsyncLookupFunction {

    private static final long serialVersionUID = 1L;

    private final RefreshingLookup lookup;
    private final int threads;
    private transient ExecutorService executor;

    TarnAsyncLookupFunction(RefreshingLookup lookup, int threads) {
        this.lookup = lookup;
        this.threads = threads;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        lookup.open(context);
        AtomicInteger count = new AtomicInteger();
        executor =
                Executors.newFixedThreadPool(
                        threads,
                        r -> {
                            Thread t = new Thread(r, "tarn-lookup-" + count.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
    }

    @Override
    public CompletableFuture<Collection<RowData>> asyncLookup(RowData keyRow) {
        if (!lookup.loaded()) {
            return CompletableFuture.supplyAsync(() -> get(keyRow), executor);
        }
        try {
            return CompletableFuture.completedFuture(get(keyRow));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private Collection<RowData> get(RowData keyRow) {
        try {
            return lookup.get(keyRow);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws Exception {
        if (executor != null) {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        lookup.close();
    }
}
