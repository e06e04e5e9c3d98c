package dev.tarn.format.lookup;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs a test's concurrent call on a thread of its own. {@code CompletableFuture.supplyAsync}
 * without an executor uses the common fork-join pool, which has one worker on a 2-core machine: any
 * task still blocked there (a cache's maintenance, an earlier test's call) would keep the call from
 * ever starting, and the test would time out waiting for it.
 */
final class OwnThread {

    private OwnThread() {}

    static <T> CompletableFuture<T> supply(Supplier<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                result.complete(call.get());
                            } catch (Throwable e) {
                                result.completeExceptionally(e);
                            }
                        },
                        "test-call");
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
