package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading a lookup's buckets: a bucket awaited before any thread started it is loaded by the thread
 * awaiting it while loads nobody awaits pause, and a bucket that cannot be read leaves no other
 * bucket holding memory.
 */
class BucketLoaderTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aBucketThatFailsToLoadClosesTheBucketsLoadedBeforeIt() throws IOException {
        // One decode thread: the buckets load one after the other, in the order of the plan.
        TableContext context = fourBuckets(2_000, null);
        Snapshot snapshot = latest(context);
        // The last bucket of the plan loses its file: the three before it load first.
        List<Split> splits = new TableScan(context).plan(snapshot).splits();
        Split last = splits.get(splits.size() - 1);
        String lost = last.files().get(0).fileName();
        Files.delete(dir.resolve("t").resolve("bucket-" + last.bucket()).resolve(lost));

        LookupLayout layout = layout(context);
        LookupBudget budget = new LookupBudget(64L << 20, Long.MAX_VALUE);
        List<HeldBucket> made = new ArrayList<>();
        BucketLoader loader =
                new BucketLoader(
                        context,
                        layout,
                        () -> {
                            HeldBucket bucket = newBucket(layout, budget);
                            made.add(bucket);
                            return bucket;
                        },
                        null);

        assertThatThrownBy(() -> loader.load(snapshot, id -> true, null))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(lost);
        assertThat(made).as("buckets made before the failure").hasSize(splits.size());
        assertThat(budget.memoryUsed()).as("memory the buckets still hold").isZero();
        for (HeldBucket bucket : made) {
            assertThat(bucket.closed()).isTrue();
        }
    }

    @Test
    void aBucketAwaitedBeforeAnyThreadStartsItIsLoadedByTheAwaitingThread() throws Exception {
        // One decode thread, held before the plan's first bucket while the last one is awaited.
        TableContext context = fourBuckets(2_000, null);
        Snapshot snapshot = latest(context);
        List<BucketId> plan = plan(context, snapshot);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BucketLoader loader =
                firstMadeWaits(
                        context, new LookupBudget(64L << 20, Long.MAX_VALUE), started, release);
        HandOvers handOvers = new HandOvers();
        BucketLoader.Loading loading = loader.start(snapshot, id -> true, null, handOvers);
        try {
            assertThat(started.await(30, TimeUnit.SECONDS)).as("first bucket started").isTrue();
            HeldBucket last = loading.await(plan.get(3));
            assertThat(last).as("the last bucket, awaited").isNotNull();
            assertThat(handOvers.threads.get(plan.get(3))).isSameAs(Thread.currentThread());
            assertThat(handOvers.threads).as("buckets loaded while the first is held").hasSize(1);

            release.countDown();
            assertThat(loading.awaitAll()).hasSize(4);
            assertThat(handOvers.threads.get(plan.get(0))).isNotSameAs(Thread.currentThread());
        } finally {
            release.countDown();
            loading.cancel();
            handOvers.closeAll();
        }
    }

    @Test
    void aLoadNobodyAwaitsPausesWhileAnotherBucketIsAwaited() throws Exception {
        long spilled = pausedWhileAwaited(new LookupBudget(64L << 20, Long.MAX_VALUE));
        assertThat(spilled).as("the paused bucket's spilled bytes").isZero();
    }

    @Test
    void anAwaitedBucketLoadsWhenAPausedLoadHoldsTheWholeBudget() throws Exception {
        // A budget of about two first-size row pages: the paused bucket holds it when the
        // awaited bucket's first row asks for room; the awaited load must still go on.
        long spilled = pausedWhileAwaited(new LookupBudget(512L << 10, Long.MAX_VALUE));
        assertThat(spilled).as("the paused bucket's spilled bytes").isPositive();
    }

    @Test
    void aBudgetSmallerThanARowPageStillLoads() throws Exception {
        // 64 KiB: no row page fits even an empty budget, so spilling the other bucket cannot make
        // room; each store goes over the budget by a page instead of spilling the other in turn.
        long spilled = pausedWhileAwaited(new LookupBudget(64L << 10, Long.MAX_VALUE));
        assertThat(spilled).as("the paused bucket's spilled bytes").isPositive();
    }

    /**
     * Loads four buckets on one thread, the last one awaited while the first is loading, and checks
     * the order they were loaded in; returns the bytes the first one spilled.
     */
    private long pausedWhileAwaited(LookupBudget budget) throws Exception {
        // 10,000 rows a bucket: the loading thread looks whether to pause every 4,096 rows. The
        // awaited bucket's file is slow to open, so a load that did not pause would finish first.
        CountDownLatch awaitedOpens = new CountDownLatch(1);
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        TableContext context = fourBuckets(40_000, io);
        Snapshot snapshot = latest(context);
        List<BucketId> plan = plan(context, snapshot);
        io.beforeNth(
                FaultInjectingFileIO.Op.NEW_INPUT_STREAM,
                p -> p.getParent().getName().equals("bucket-" + plan.get(3).bucket()),
                0,
                (path, real) -> {
                    awaitedOpens.countDown();
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BucketLoader loader = firstMadeWaits(context, budget, started, release);
        HandOvers handOvers = new HandOvers();
        BucketLoader.Loading loading = loader.start(snapshot, id -> true, null, handOvers);
        try {
            // The loading thread's first bucket is the one made first, and waits: were the awaited
            // bucket made first, it would wait instead and its file would never open.
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<HeldBucket> awaited =
                    OwnThread.supply(
                            () -> {
                                try {
                                    return loading.await(plan.get(3));
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
            assertThat(awaitedOpens.await(30, TimeUnit.SECONDS)).isTrue();
            release.countDown();
            assertThat(awaited.get(30, TimeUnit.SECONDS)).isNotNull();
            loading.awaitAll();
            assertThat(handOvers.ids)
                    .as("the order buckets were loaded in")
                    .containsExactly(plan.get(3), plan.get(0), plan.get(1), plan.get(2));
            return handOvers.buckets.get(1).diskBytes();
        } finally {
            release.countDown();
            loading.cancel();
            handOvers.closeAll();
        }
    }

    /**
     * A loader of {@code context}'s buckets whose first bucket made counts {@code started} down,
     * then waits for {@code release} before it loads.
     */
    private BucketLoader firstMadeWaits(
            TableContext context,
            LookupBudget budget,
            CountDownLatch started,
            CountDownLatch release) {
        LookupLayout layout = layout(context);
        AtomicInteger made = new AtomicInteger();
        return new BucketLoader(
                context,
                layout,
                () -> {
                    if (made.getAndIncrement() == 0) {
                        started.countDown();
                        awaitQuietly(release);
                    }
                    return newBucket(layout, budget);
                },
                null);
    }

    /** The buckets a load hands over: their ids in order, the threads that loaded them. */
    private static final class HandOvers implements BiConsumer<BucketId, HeldBucket> {
        final List<BucketId> ids = new CopyOnWriteArrayList<>();
        final Map<BucketId, Thread> threads = new ConcurrentHashMap<>();
        final List<HeldBucket> buckets = new CopyOnWriteArrayList<>();

        @Override
        public void accept(BucketId id, HeldBucket bucket) {
            ids.add(id);
            threads.put(id, Thread.currentThread());
            buckets.add(bucket);
        }

        void closeAll() throws IOException {
            for (HeldBucket bucket : buckets) {
                bucket.close();
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<BucketId> plan(TableContext context, Snapshot snapshot) throws IOException {
        List<BucketId> plan = new ArrayList<>();
        for (Split split : new TableScan(context).plan(snapshot).splits()) {
            plan.add(new BucketId(split.partition(), split.bucket()));
        }
        assertThat(plan).hasSize(4);
        return plan;
    }

    /** A primary-key table of {@code rows} rows in four buckets, read on one decode thread. */
    private TableContext fourBuckets(int rowCount, @Nullable FileIO io) throws IOException {
        Table table =
                Table.create(
                        io == null ? FileIO.flinkFileSystems() : io,
                        new Path(dir.resolve("t").toUri()),
                        "db.t",
                        TableSchema.create(
                                RowType.of(
                                        new LogicalType[] {
                                            new BigIntType(false), VarCharType.STRING_TYPE
                                        },
                                        new String[] {"id", "v"}),
                                List.of(),
                                List.of("id"),
                                Map.of("bucket", "4", "read.decode-threads", "1"),
                                null));
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < rowCount; id++) {
            rows.add(TestTables.row(id, "v" + id));
        }
        TestTables.append(table, 1, rows);
        return TableInternals.context(table);
    }

    private static Snapshot latest(TableContext context) throws IOException {
        return context.snapshotManager().snapshot(context.snapshotManager().latestId().getAsLong());
    }

    private LookupLayout layout(TableContext context) {
        LookupSpec spec = new LookupSpec(List.of("id"), new int[] {0, 1}, null, 0, 1, dir);
        return new LookupLayout("db.t", context.schema(), spec);
    }

    private HeldBucket newBucket(LookupLayout layout, LookupBudget budget) {
        return HeldBucket.spilling(
                layout,
                RowFilter.of(null, layout.readPosition),
                false,
                budget,
                dir.resolve("local"));
    }
}
