package dev.tarn.connector.lookup;

import dev.tarn.format.Table;
import dev.tarn.format.lookup.LookupSpec;
import dev.tarn.format.lookup.TableLookup;
import dev.tarn.format.predicate.Predicate;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;

/**
 * One lookup-join subtask's view of a table: a {@link TableLookup} that one daemon thread refreshes
 * every {@code continuous.discovery-interval}, shared by the synchronous and the asynchronous
 * lookup function. A refresh that fails stops the refreshing, and every later lookup throws its
 * message, naming the table, so the job fails rather than join stale rows.
 *
 * <p>Thread-safety: {@link #get} may be called from several threads while the refresh runs; {@link
 * #open} and {@link #close} from the task thread only.
 */
final class RefreshingLookup implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final List<String> joinKeys;
    private final int[] projection;
    @Nullable private final Predicate filter;

    /** Whether the planner routes each fact to the subtask that holds its bucket. */
    private final boolean shuffled;

    private transient TableLookup lookup;
    private transient ScheduledExecutorService refresher;
    private transient Path localDir;
    private transient volatile Throwable failure;

    /** The bytes the lookup held at its last refresh, read by the gauges without a lock. */
    private transient volatile long memoryBytes;

    private transient volatile long diskBytes;

    private transient volatile long snapshotId;

    RefreshingLookup(
            Table table,
            List<String> joinKeys,
            int[] projection,
            @Nullable Predicate filter,
            boolean shuffled) {
        this.table = table;
        this.joinKeys = List.copyOf(joinKeys);
        this.projection = projection.clone();
        this.filter = filter;
        this.shuffled = shuffled;
    }

    /**
     * Starts loading this subtask's rows (its share of the buckets if the input is shuffled by
     * bucket, else every bucket), registers the gauges and starts the refresh thread.
     */
    void open(FunctionContext context) throws IOException {
        int subtask = shuffled ? context.getTaskInfo().getIndexOfThisSubtask() : 0;
        int subtasks = shuffled ? context.getTaskInfo().getNumberOfParallelSubtasks() : 1;
        localDir =
                Files.createTempDirectory(
                        Path.of(System.getProperty("java.io.tmpdir")), "tarn-lookup-");
        lookup =
                table.newLookup(
                        new LookupSpec(joinKeys, projection, filter, subtask, subtasks, localDir));
        // Returns once planned: each lookup waits for its own bucket, the refresh for them all.
        lookup.start();
        sample();
        context.getMetricGroup().gauge("lookupMemoryBytes", (Gauge<Long>) () -> memoryBytes);
        context.getMetricGroup().gauge("lookupDiskBytes", (Gauge<Long>) () -> diskBytes);
        context.getMetricGroup().gauge("lookupSnapshotId", (Gauge<Long>) () -> snapshotId);
        context.getMetricGroup().gauge("lookupSubtasksSharing", (Gauge<Integer>) () -> subtasks);
        long interval = table.config().stream().discoveryInterval().toMillis();
        refresher =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "tarn-lookup-refresh-" + table.name());
                            t.setDaemon(true);
                            return t;
                        });
        // The first run waits for the whole first load, so the gauges show it once it is in.
        refresher.scheduleWithFixedDelay(this::refresh, 0, interval, TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            lookup.refresh();
            sample();
        } catch (Throwable t) {
            failure = t;
            // Throwing cancels the schedule: the next lookup reports the failure.
            throw t instanceof RuntimeException ? (RuntimeException) t : new RuntimeException(t);
        }
    }

    private void sample() {
        memoryBytes = lookup.memoryBytes();
        diskBytes = lookup.diskBytes();
        snapshotId = lookup.snapshotId();
    }

    /**
     * The current rows whose join columns equal {@code key}'s fields, as copies.
     *
     * @throws IOException if the rows cannot be read, or the refresh failed (its message, naming
     *     the table)
     */
    List<RowData> get(RowData key) throws IOException {
        Throwable failed = failure;
        if (failed != null) {
            throw new IOException(
                    String.format(
                            "Lookup join on table %s cannot follow the table: %s",
                            table.name(), failed.getMessage()),
                    failed);
        }
        return lookup.get(key);
    }

    /**
     * Whether a {@link #get} now answers without waiting for a load ({@link TableLookup#loaded}).
     */
    boolean loaded() {
        return lookup.loaded();
    }

    void close() throws IOException {
        if (refresher != null) {
            refresher.shutdownNow();
            try {
                refresher.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            if (lookup != null) {
                // The gauges keep what the lookup held last, for a job that ends.
                sample();
                lookup.close();
            }
        } finally {
            if (localDir != null) {
                deleteRecursively(localDir);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.deleteIfExists(p);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
