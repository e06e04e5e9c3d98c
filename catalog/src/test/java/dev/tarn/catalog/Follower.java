package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** The rows of a running streaming query, read on a thread of its own; closing cancels the job. */
final class Follower implements AutoCloseable {

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

    /** The next {@code n} rows, as text, waiting up to 30 s for each. */
    List<String> take(int n) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Row row = rows.poll(30, TimeUnit.SECONDS);
            checkRunning();
            assertThat(row).as("row %d of %d, after %s", i + 1, n, out).isNotNull();
            out.add(row.toString());
        }
        return out;
    }

    /** Asserts that no row comes within {@code millis}. */
    void assertNothingFor(long millis) throws Exception {
        Row row = rows.poll(millis, TimeUnit.MILLISECONDS);
        checkRunning();
        assertThat(row).as("no further row").isNull();
    }

    /** Waits until the job's tasks run and the enumerator had a probe's time to plan its start. */
    void awaitRunning() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!result.getJobClient().get().getJobStatus().get().name().equals("RUNNING")) {
            assertThat(System.nanoTime()).as("job running within 30 s").isLessThan(deadline);
            Thread.sleep(20);
        }
        Thread.sleep(1000);
    }

    private void checkRunning() {
        if (failure != null) {
            throw new AssertionError("The query failed", failure);
        }
    }

    @Override
    public void close() throws Exception {
        result.getJobClient().ifPresent(c -> c.cancel());
        reader.interrupt();
    }
}
