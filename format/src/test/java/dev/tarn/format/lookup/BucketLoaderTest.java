package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
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
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading a lookup's buckets: a bucket that cannot be read leaves no other bucket holding memory.
 */
class BucketLoaderTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aBucketThatFailsToLoadClosesTheBucketsLoadedBeforeIt() throws IOException {
        // One decode thread: the buckets load one after the other, in the order of the plan.
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
        TableContext context = TableInternals.context(table);
        Snapshot snapshot =
                context.snapshotManager()
                        .snapshot(context.snapshotManager().latestId().getAsLong());
        // The last bucket of the plan loses its file: the three before it load first.
        List<Split> splits = new TableScan(context).plan(snapshot).splits();
        Split last = splits.get(splits.size() - 1);
        String lost = last.files().get(0).fileName();
        Files.delete(dir.resolve("t").resolve("bucket-" + last.bucket()).resolve(lost));

        LookupSpec spec = new LookupSpec(List.of("id"), new int[] {0, 1}, null, 0, 1, dir);
        LookupLayout layout = new LookupLayout("db.t", context.schema(), spec);
        LookupBudget budget = new LookupBudget(64L << 20, Long.MAX_VALUE);
        List<HeldBucket> made = new ArrayList<>();
        BucketLoader loader =
                new BucketLoader(
                        context,
                        layout,
                        () -> {
                            HeldBucket bucket =
                                    new HeldBucket(
                                            layout,
                                            RowFilter.of(null, layout.readPosition),
                                            false,
                                            (type, indexKey, lock) ->
                                                    new SpillingBucketStore(
                                                            new IndexOrder(type, indexKey),
                                                            budget,
                                                            dir.resolve("local"),
                                                            lock));
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
}
