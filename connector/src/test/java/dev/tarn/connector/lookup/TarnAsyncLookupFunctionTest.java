package dev.tarn.connector.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The asynchronous lookup function once its rows are loaded: a lookup answers at once, its future
 * completed when the call returns (no hand-off to the function's threads), with the same rows as
 * before, and a missing key with none.
 */
class TarnAsyncLookupFunctionTest {

    private static final int KEYS = 2000;

    @TempDir File dir;

    @Test
    void aLookupOfLoadedRowsCompletesBeforeItReturns() throws Exception {
        Table table = LookupTestTables.customers(dir, KEYS);

        RefreshingLookup lookup =
                new RefreshingLookup(table, List.of("id"), new int[] {0, 1}, null, false);
        TarnAsyncLookupFunction function = new TarnAsyncLookupFunction(lookup, 2);
        function.open(new FunctionContext(null));
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!lookup.loaded()) {
                assertThat(System.nanoTime()).as("loaded within 30 s").isLessThan(deadline);
                Thread.sleep(5);
            }
            List<CompletableFuture<Collection<RowData>>> found = new ArrayList<>();
            for (long id = 0; id < KEYS; id += 97) {
                CompletableFuture<Collection<RowData>> future =
                        function.asyncLookup(GenericRowData.of(id));
                assertThat(future).as("key %d answered before the call returned", id).isDone();
                found.add(future);
            }
            for (int i = 0; i < found.size(); i++) {
                long id = i * 97L;
                assertThat(found.get(i).get())
                        .singleElement()
                        .satisfies(
                                row -> {
                                    assertThat(row.getLong(0)).isEqualTo(id);
                                    assertThat(row.getString(1).toString()).isEqualTo("name-" + id);
                                });
            }
            CompletableFuture<Collection<RowData>> missing =
                    function.asyncLookup(GenericRowData.of((long) KEYS));
            assertThat(missing).isDone();
            assertThat(missing.get()).isEmpty();
        } finally {
            function.close();
        }
    }
}
