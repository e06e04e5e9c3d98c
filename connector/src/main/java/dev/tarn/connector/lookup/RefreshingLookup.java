package dev.tarn.connector.lookup;

import dev.tarn.connector.TaskManagerDirectories;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * <p>The subtasks of one join operator that run in the same TaskManager (one JVM) and would hold
 * the same rows share one copy: without a shuffle by bucket every subtask holds the whole table, so
 * the first to open loads it and the others join it ({@link Copy}, counted by its holders, closed
 * by the last); with the shuffle each subtask's share is its own. The copy is keyed by an id drawn
 * when the join is planned, so two joins, or two jobs, never share one.
 *
 * <p>Thread-safety: {@link #get} may be called from several threads while the refresh runs; {@link
 * #open} and {@link #close} from the task thread only.
 */
final class RefreshingLookup implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The copies open in this JVM, by join id and share of the buckets; guarded by itself. */
    private static final Map<String, Copy> COPIES = new HashMap<>();

    private final Table table;
    private final List<String> joinKeys;
    private final int[] projection;
    @Nullable private final Predicate filter;

    /** Whether the planner routes each fact to the subtask that holds its bucket. */
    private final boolean shuffled;

    /** Drawn when the join is planned: every subtask of the join deserializes the same. */
    private final String joinId = UUID.randomUUID().toString();

    private transient Copy copy;

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
     * Opens this subtask's rows (its share of the buckets if the input is shuffled by bucket, else
     * every bucket): the copy another subtask of this join in this JVM holds, or a new one whose
     * load starts and whose refresh thread starts; registers the gauges.
     */
    void open(FunctionContext context) throws IOException {
        int subtask = shuffled ? context.getTaskInfo().getIndexOfThisSubtask() : 0;
        int subtasks = shuffled ? context.getTaskInfo().getNumberOfParallelSubtasks() : 1;
        String key = joinId + "/" + subtask + "/" + subtasks;
        synchronized (COPIES) {
            Copy held = COPIES.get(key);
            if (held == null) {
                held =
                        new Copy(
                                table,
                                TaskManagerDirectories.of(context),
                                localDir ->
                                        new LookupSpec(
                                                joinKeys,
                                                projection,
                                                filter,
                                                subtask,
                                                subtasks,
                                                localDir));
                COPIES.put(key, held);
            }
            held.holders++;
            held.opened++;
            copy = held;
        }
        Copy c = copy;
        context.getMetricGroup().gauge("lookupMemoryBytes", (Gauge<Long>) () -> c.memoryBytes);
        context.getMetricGroup().gauge("lookupDiskBytes", (Gauge<Long>) () -> c.diskBytes);
        context.getMetricGroup().gauge("lookupSnapshotId", (Gauge<Long>) () -> c.snapshotId);
        context.getMetricGroup().gauge("lookupSubtasksSharing", (Gauge<Integer>) () -> subtasks);
        context.getMetricGroup().gauge("lookupCopySubtasks", (Gauge<Integer>) c::opened);
    }

    /**
     * The current rows whose join columns equal {@code key}'s fields, as copies.
     *
     * @throws IOException if the rows cannot be read, or the refresh failed (its message, naming
     *     the table)
     */
    List<RowData> get(RowData key) throws IOException {
        Copy c = copy;
        Throwable failed = c.failure;
        if (failed != null) {
            throw new IOException(
                    String.format(
                            "Lookup join on table %s cannot follow the table: %s",
                            table.name(), failed.getMessage()),
                    failed);
        }
        return c.lookup.get(key);
    }

    /**
     * Whether a {@link #get} now answers without waiting for a load ({@link TableLookup#loaded}).
     */
    boolean loaded() {
        return copy.lookup.loaded();
    }

    /** Leaves the copy; the last subtask to leave it closes it. */
    void close() throws IOException {
        Copy c = copy;
        if (c == null) {
            return;
        }
        copy = null;
        boolean last;
        synchronized (COPIES) {
            last = --c.holders == 0;
            if (last) {
                COPIES.values().remove(c);
            }
        }
        if (last) {
            c.close();
        }
    }

    /** The copies open in this JVM (for tests). */
    static int openCopies() {
        synchronized (COPIES) {
            return COPIES.size();
        }
    }

    /**
     * One loaded copy of the rows of a join's subtasks in this JVM, its refresh thread and its
     * local files; {@link #holders} and {@link #opened} are guarded by {@link #COPIES}.
     */
    private static final class Copy {
        private final TableLookup lookup;
        private final ScheduledExecutorService refresher;
        private final Path localDir;
        private int holders;

        /** The subtasks that opened it, those that left it included (a gauge's value). */
        private int opened;

        private volatile Throwable failure;

        /** What the lookup held at its last refresh, read by the gauges without a lock. */
        private volatile long memoryBytes;

        private volatile long diskBytes;
        private volatile long snapshotId;

        /**
         * Loads the rows {@code spec} names, given the copy's local directory, made under {@code
         * parent}.
         */
        Copy(Table table, Path parent, Function<Path, LookupSpec> spec) throws IOException {
            this.localDir = Files.createTempDirectory(parent, "tarn-lookup-");
            TableLookup opened = null;
            try {
                opened = table.newLookup(spec.apply(localDir));
                // Returns once planned: each lookup waits for its own bucket, the refresh for all.
                opened.start();
            } catch (IOException | RuntimeException e) {
                if (opened != null) {
                    opened.close();
                }
                deleteRecursively(localDir);
                throw e;
            }
            this.lookup = opened;
            sample();
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

        int opened() {
            synchronized (COPIES) {
                return opened;
            }
        }

        private void refresh() {
            try {
                lookup.refresh();
                sample();
            } catch (Throwable t) {
                failure = t;
                // Throwing cancels the schedule: the next lookup reports the failure.
                throw t instanceof RuntimeException
                        ? (RuntimeException) t
                        : new RuntimeException(t);
            }
        }

        private void sample() {
            memoryBytes = lookup.memoryBytes();
            diskBytes = lookup.diskBytes();
            snapshotId = lookup.snapshotId();
        }

        void close() throws IOException {
            refresher.shutdownNow();
            try {
                refresher.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                // The gauges keep what the lookup held last, for a job that ends.
                sample();
                lookup.close();
            } finally {
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
