package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading a lookup's buckets: a bucket asked for before it started loads next, and a bucket that
 * cannot be read leaves no other bucket holding memory.
 */
class BucketLoaderTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aBucketThatFailsToLoadClosesTheBucketsLoadedBeforeIt() throws IOException {
        // One decode thread: the buckets load one after the other, in the order of the plan.
        TableContext context = fourBuckets();
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
    void aBucketAwaitedBeforeItStartsLoadsNext() throws Exception {
        // One decode thread, held in the plan's first bucket while the last one is asked for.
        TableContext context = fourBuckets();
        Snapshot snapshot = latest(context);
        List<BucketId> plan = new ArrayList<>();
        for (Split split : new TableScan(context).plan(snapshot).splits()) {
            plan.add(new BucketId(split.partition(), split.bucket()));
        }
        assertThat(plan).hasSize(4);

        LookupLayout layout = layout(context);
        LookupBudget budget = new LookupBudget(64L << 20, Long.MAX_VALUE);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger made = new AtomicInteger();
        BucketLoader loader =
                new BucketLoader(
                        context,
                        layout,
                        () -> {
                            if (made.getAndIncrement() == 0) {
                                started.countDown();
                                try {
                                    release.await();
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                            }
                            return newBucket(layout, budget);
                        },
                        null);
        List<BucketId> handedOver = new CopyOnWriteArrayList<>();
        List<HeldBucket> loaded = new CopyOnWriteArrayList<>();
        BucketLoader.Loading loading =
                loader.start(
                        snapshot,
                        id -> true,
                        null,
                        (id, bucket) -> {
                            handedOver.add(id);
                            loaded.add(bucket);
                        });
        try {
            assertThat(started.await(30, TimeUnit.SECONDS)).as("first bucket started").isTrue();
            loading.prefer(plan.get(3));
            release.countDown();
            loading.awaitAll();
            assertThat(handedOver)
                    .as("the order buckets were loaded in")
                    .containsExactly(plan.get(0), plan.get(3), plan.get(1), plan.get(2));
        } finally {
            release.countDown();
            loading.cancel();
            for (HeldBucket bucket : loaded) {
                bucket.close();
            }
        }
    }

    /** A primary-key table of 2,000 rows in four buckets, read on one decode thread. */
    private TableContext fourBuckets() throws IOException {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
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
        for (long id = 0; id < 2_000; id++) {
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
        return new HeldBucket(
                layout,
                RowFilter.of(null, layout.readPosition),
                false,
                (type, indexKey, lock) ->
                        new SpillingBucketStore(
                                new IndexOrder(type, indexKey),
                                budget,
                                dir.resolve("local"),
                                lock));
    }
}
