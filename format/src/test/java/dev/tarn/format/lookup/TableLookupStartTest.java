package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.bucket.BucketHasher;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lookup that is started rather than opened, joined on columns that route to a bucket but do not
 * lead the key: a get waits for its own bucket, not for the whole load, and a bucket that cannot be
 * loaded fails the gets and the refresh with the file's name.
 */
class TableLookupStartTest {

    private static final int BUCKETS = 4;

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), new VarCharType(false, VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "v"});

    @TempDir java.nio.file.Path dir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseLoads() {
        release.countDown();
    }

    /**
     * {@code (id, v)} keyed by {@code (v, id)} and bucketed by id in four buckets, ids 0 to 1,999,
     * read on two threads: a join on id routes to a bucket, but its files are not sorted by id, so
     * a get waits for the bucket's load rather than read its files ({@link
     * TableLookupFromFilesTest}).
     */
    private Table table() {
        Table table =
                Table.create(
                        io,
                        new Path(dir.resolve("t").toUri()),
                        "db.t",
                        TableSchema.create(
                                TYPE,
                                List.of(),
                                List.of("v", "id"),
                                Map.of(
                                        "bucket", "" + BUCKETS,
                                        "bucket-key", "id",
                                        "read.decode-threads", "2"),
                                null));
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 2_000; id++) {
            rows.add(TestTables.row(id, "v" + id));
        }
        TestTables.append(table, 1, rows);
        return table;
    }

    private TableLookup lookup(Table table) {
        return table.newLookup(
                new LookupSpec(List.of("id"), new int[] {0, 1}, null, 0, 1, dir.resolve("local")));
    }

    /** The first id the table keeps in {@code bucket}. */
    private static long idIn(int bucket) {
        BucketHasher hasher = new BucketHasher(RowType.of(new BigIntType(false)), new int[] {0});
        for (long id = 0; ; id++) {
            if (hasher.bucket(GenericRowData.of(id), BUCKETS) == bucket) {
                return id;
            }
        }
    }

    private static Predicate<Path> inBucket(int bucket) {
        return p -> p.getParent().getName().equals("bucket-" + bucket);
    }

    private static List<String> get(TableLookup lookup, long id) {
        try {
            return lookup.get(GenericRowData.of(id)).stream()
                    .map(r -> r.getLong(0) + "," + r.getString(1))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aGetWaitsForItsOwnBucketAndNotForTheRest() throws Exception {
        Table table = table();
        // Bucket 0 is held until the end; bucket 3 is slow, so a get that did not wait finds none.
        io.beforeNth(
                Op.NEW_INPUT_STREAM,
                inBucket(0),
                0,
                (path, real) -> {
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        io.beforeNth(
                Op.NEW_INPUT_STREAM,
                inBucket(3),
                0,
                (path, real) -> {
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        long id = idIn(3);
        try (TableLookup lookup = lookup(table)) {
            lookup.start();
            List<String> rows = OwnThread.supply(() -> get(lookup, id)).get(20, TimeUnit.SECONDS);
            assertThat(rows).as("rows of id %s, in bucket 3", id).containsExactly(id + ",v" + id);
            assertThat(release.getCount()).as("bucket 0 still held").isOne();

            release.countDown();
            long other = idIn(0);
            assertThat(get(lookup, other)).containsExactly(other + ",v" + other);
            assertThat(lookup.refresh()).isEqualTo(table.metadata().latestSnapshotId().orElse(-1));
        }
    }

    @Test
    void aBucketThatCannotLoadFailsItsGetsAndTheRefreshWithTheFileName() throws Exception {
        Table table = table();
        java.nio.file.Path file;
        try (Stream<java.nio.file.Path> files = Files.list(dir.resolve("t").resolve("bucket-3"))) {
            file = files.findFirst().orElseThrow();
        }
        Files.delete(file);
        String lost = file.getFileName().toString();
        try (TableLookup lookup = lookup(table)) {
            lookup.start();
            assertThatThrownBy(() -> lookup.get(GenericRowData.of(idIn(3))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(lost);
            assertThatThrownBy(lookup::refresh)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(lost);
            assertThatThrownBy(() -> lookup.get(GenericRowData.of(idIn(0))))
                    .as("a later get of a bucket that loaded")
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(lost);
        }
    }
}
