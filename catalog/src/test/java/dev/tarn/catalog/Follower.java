package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

/**
 * The rows of a running streaming query, read on a thread of its own, for the streaming ITCases:
 * they take its rows, apply them as a changelog, or wait for the query to fail.
 */
final class Follower implements AutoCloseable {

    /** How long a test waits for a row, a state or a failure. */
    private static final long WAIT_SECONDS = 30;

    private final TableResult result;
    private final BlockingQueue<Row> rows = new ArrayBlockingQueue<>(10_000);
    private final Thread reader;
    private volatile Throwable failure;

    Follower(TableResult result) {
        this.result = result;
        this.reader =
                new Thread(
                        () -> {
                            try (CloseableIterator<Row> it = result.collect()) {
                                while (it.hasNext()) {
                                    rows.put(it.next());
                                }
                            } catch (InterruptedException e) {
                                // Closed.
                            } catch (Throwable t) {
                                failure = t;
                            }
                        });
        reader.setDaemon(true);
        reader.start();
    }

    /** The next {@code n} rows, as text. */
    List<String> take(int n) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Row row = rows.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            checkRunning();
            assertThat(row).as("row %d of %d, after %s", i + 1, n, out).isNotNull();
            out.add(row.toString());
        }
        return out;
    }

    /** The next {@code n} rows' first fields, as ints. */
    int[] takeInts(int n) throws Exception {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            Row row = rows.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            checkRunning();
            assertThat(row).as("row %d of %d", i + 1, n).isNotNull();
            out[i] = (Integer) row.getField(0);
        }
        return out;
    }

    private void checkRunning() {
        if (failure != null) {
            throw new AssertionError("The query failed", failure);
        }
    }

    /** Asserts that no row comes within {@code millis}. */
    void assertNothingFor(long millis) throws Exception {
        Row row = rows.poll(millis, TimeUnit.MILLISECONDS);
        checkRunning();
        assertThat(row).as("no row within %d ms", millis).isNull();
    }

    void assertNothingMore() throws Exception {
        Row row = rows.poll(1500, TimeUnit.MILLISECONDS);
        assertThat(row).as("no further row").isNull();
    }

    /** Waits until the query fails; returns the messages of its causes, outermost first. */
    String awaitFailure() throws Exception {
        awaitTrue(() -> failure != null);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }

    /** Waits until the job's tasks run, so that a later commit is a change to it. */
    void awaitRunning() throws Exception {
        awaitTrue(() -> result.getJobClient().get().getJobStatus().get().name().equals("RUNNING"));
        // The enumerator plans its start when the job starts: give it a probe's time.
        Thread.sleep(1000);
    }

    /** Applies the changelog to a map by its first field until it equals {@code expected}. */
    void awaitMaterialized(Map<String, String> expected) throws Exception {
        Map<String, String> view = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!new TreeMap<>(view).equals(expected)) {
            Row row = rows.poll(100, TimeUnit.MILLISECONDS);
            checkRunning();
            assertThat(System.nanoTime())
                    .as("changelog materialized to %s, expected %s", view, expected)
                    .isLessThan(deadline);
            if (row == null) {
                continue;
            }
            String key = String.valueOf(row.getField(0));
            RowKind kind = row.getKind();
            if (kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER) {
                Row copy = Row.copy(row);
                copy.setKind(RowKind.INSERT);
                view.put(key, copy.toString().substring(3));
            } else {
                view.remove(key);
            }
        }
    }

    @Override
    public void close() throws Exception {
        cancelAndAwait(result);
        reader.interrupt();
    }

    /**
     * Cancels {@code job} and waits until it is gone: until then its tasks, committer or enumerator
     * may still write into the test's directory, and removing the directory would fail.
     */
    static void cancelAndAwait(TableResult job) throws Exception {
        var client = job.getJobClient();
        if (client.isPresent()) {
            client.get().cancel();
            awaitTrue(() -> client.get().getJobStatus().get().isGloballyTerminalState());
        }
    }

    /** A condition a test waits for. */
    interface Check {
        boolean holds() throws Exception;
    }

    /** Waits until {@code check} holds, failing after 30 s. */
    static void awaitTrue(Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!check.holds()) {
            assertThat(System.nanoTime()).as("waited %d s", WAIT_SECONDS).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
