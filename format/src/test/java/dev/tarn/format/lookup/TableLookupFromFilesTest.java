package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A started lookup whose buckets are still loading answers a get by the leading columns of the key
 * from the bucket's files: with every bucket's load held, each get returns what the batch read
 * gives, for every merge engine, with deletion vectors and with the lookup changelog producer, for
 * keys present, updated, deleted and absent; once the loads are let go, the loaded buckets answer
 * the same.
 */
class TableLookupFromFilesTest {

    private static final int BUCKETS = 2;

    /** {@code (k BIGINT NOT NULL, g BIGINT NOT NULL, a BIGINT, b STRING)}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new BigIntType(false),
                        new BigIntType(),
                        VarCharType.STRING_TYPE
                    },
                    new String[] {"k", "g", "a", "b"});

    private static final String[] BS = {"x", "y", "z", null};

    @TempDir java.nio.file.Path dir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseLoads() {
        release.countDown();
    }

    /**
     * Keyed by {@code (k, g)}, bucketed by {@code k}; 2,000 random upserts (and deletes, where the
     * engine takes them) over 300 keys in five commits, so a bucket has several files.
     */
    private Table table(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("bucket", "" + BUCKETS);
        all.put("bucket-key", "k");
        all.put("read.decode-threads", "" + BUCKETS);
        Table table =
                Table.create(
                        io,
                        new Path(dir.resolve("t").toUri()),
                        "db.t",
                        TableSchema.create(TYPE, List.of(), List.of("k", "g"), all, null));
        boolean deletes = table.config().lsm().mergeEngine().supportsDelete();
        Random random = new Random(42);
        for (int c = 0; c < 5; c++) {
            List<RowData> rows = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                boolean delete = deletes && random.nextInt(5) == 0;
                GenericRowData row =
                        GenericRowData.of(
                                (long) random.nextInt(100),
                                (long) random.nextInt(3),
                                random.nextInt(4) == 0 ? null : (long) random.nextInt(10),
                                StringData.fromString(BS[random.nextInt(BS.length)]));
                row.setRowKind(delete ? RowKind.DELETE : RowKind.INSERT);
                rows.add(row);
            }
            TestTables.append(table, c + 1, rows);
        }
        return table;
    }

    /**
     * Holds the first file opened in each bucket directory (the loads open theirs first) until
     * {@link #release}; the latch counts the {@code loads} held.
     */
    private CountDownLatch holdEveryLoad(int loads) {
        CountDownLatch held = new CountDownLatch(loads);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        io.beforeNth(
                Op.NEW_INPUT_STREAM,
                p -> p.getParent().getName().startsWith("bucket-"),
                0,
                (path, real) -> {
                    if (seen.add(path.getParent().toString())) {
                        held.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
        return held;
    }

    /** Keys 0 to 104 (a few absent), by {@code k} alone or by {@code (g, k)}. */
    private static List<GenericRowData> keys(List<String> join) {
        List<GenericRowData> keys = new ArrayList<>();
        for (long k = 0; k < 105; k++) {
            if (join.size() == 1) {
                keys.add(GenericRowData.of(k));
            } else {
                for (long g = 0; g < 4; g++) {
                    keys.add(GenericRowData.of(g, k));
                }
            }
        }
        return keys;
    }

    /**
     * With the first {@code loads} bucket loads of {@code table} held, every key's rows equal the
     * batch read's; once the loads are let go, too.
     */
    private void checkWhileLoadsAreHeld(
            Table table, List<String> join, List<GenericRowData> keys, int loads, String what)
            throws Exception {
        LookupSpec spec =
                new LookupSpec(join, new int[] {0, 1, 2, 3}, null, 0, 1, dir.resolve("local"));
        String expected =
                LookupChecks.describe(
                        LookupChecks.expected(
                                table, LookupChecks.batchRows(table), spec, r -> true, keys));
        CountDownLatch held = holdEveryLoad(loads);
        try (TableLookup lookup = table.newLookup(spec)) {
            lookup.start();
            assertThat(held.await(20, TimeUnit.SECONDS)).as("every bucket's load held").isTrue();
            String fromFiles =
                    OwnThread.supply(() -> describe(table, lookup, spec, keys))
                            .get(30, TimeUnit.SECONDS);
            assertThat(fromFiles).as("%s, by %s, from the files", what, join).isEqualTo(expected);
            assertThat(release.getCount()).as("the loads still held").isOne();

            release.countDown();
            assertThat(lookup.refresh()).isEqualTo(table.metadata().latestSnapshotId().orElse(-1));
            assertThat(describe(table, lookup, spec, keys))
                    .as("%s, by %s, loaded", what, join)
                    .isEqualTo(expected);
        }
    }

    private static String describe(
            Table table, TableLookup lookup, LookupSpec spec, List<GenericRowData> keys) {
        Map<String, List<String>> actual = LookupChecks.actual(table, lookup, spec, keys);
        assertThat(LookupChecks.hits(actual)).as("keys with rows").isPositive();
        return LookupChecks.describe(actual);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tarn.format.lookup.TableLookupRefreshTest#tables")
    void aGetByTheWholeKeyReadsTheFilesOfABucketNotLoadedYet(
            String engine, Map<String, String> options) throws Exception {
        List<String> join = List.of("g", "k");
        checkWhileLoadsAreHeld(table(options), join, keys(join), BUCKETS, engine);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tarn.format.lookup.TableLookupRefreshTest#tables")
    void aGetByTheLeadingKeyColumnReadsTheFilesOfABucketNotLoadedYet(
            String engine, Map<String, String> options) throws Exception {
        List<String> join = List.of("k");
        checkWhileLoadsAreHeld(table(options), join, keys(join), BUCKETS, engine);
    }

    @Test
    void aGetByPartitionAndTheLeadingKeyColumnReadsTheFilesOfItsPartitionsBucket()
            throws Exception {
        // (id, k2, city, score, dt), partitioned by dt, keyed by (id, k2, dt), bucketed by id.
        Table table =
                Table.create(
                        io,
                        new Path(dir.resolve("p").toUri()),
                        "db.p",
                        TableSchema.create(
                                TableLookupTest.TYPE,
                                List.of("dt"),
                                List.of("id", "k2", "dt"),
                                Map.of(
                                        "bucket",
                                        "4",
                                        "bucket-key",
                                        "id",
                                        "read.decode-threads",
                                        "8"),
                                null));
        TableLookupTest.writeRandom(table, 7, 4, true);
        List<String> join = List.of("dt", "id");
        checkWhileLoadsAreHeld(table, join, TableLookupTest.keys(join), 8, "partitioned");
    }

    /** Whether a lookup of a table of {@code key} and {@code v}, by {@code join}, reads files. */
    private boolean readsFiles(
            String name, LogicalType key, List<String> primaryKey, String bucketKey, String join)
            throws IOException {
        RowType type =
                RowType.of(new LogicalType[] {key, new BigIntType(false)}, new String[] {"k", "v"});
        Map<String, String> options = new HashMap<>(Map.of("bucket", "2"));
        if (bucketKey != null) {
            options.put("bucket-key", bucketKey);
        }
        Table table =
                Table.create(
                        io,
                        new Path(dir.resolve(name).toUri()),
                        "db." + name,
                        TableSchema.create(type, List.of(), primaryKey, options, null));
        try (TableLookup lookup =
                table.newLookup(
                        new LookupSpec(
                                List.of(join), new int[] {0, 1}, null, 0, 1, dir.resolve("l")))) {
            return lookup.answersFromFiles();
        }
    }

    @Test
    void onlyAJoinByLeadingKeyColumnsThatPruneReadsFiles() throws IOException {
        LogicalType bigint = new BigIntType(false);
        List<String> kv = List.of("k", "v");
        assertThat(readsFiles("long", bigint, kv, "k", "k")).as("leading BIGINT").isTrue();
        assertThat(readsFiles("string", new VarCharType(false, 10), kv, "k", "k")).isTrue();
        assertThat(readsFiles("decimal", new DecimalType(false, 18, 2), kv, "k", "k")).isTrue();
        assertThat(readsFiles("wide", new DecimalType(false, 20, 2), kv, "k", "k"))
                .as("a DECIMAL(20, 2) key, stored as fixed bytes")
                .isFalse();
        assertThat(readsFiles("bytes", new VarBinaryType(false, 10), kv, "k", "k"))
                .as("a VARBINARY key")
                .isFalse();
        assertThat(readsFiles("second", bigint, kv, "v", "v"))
                .as("the second key column alone")
                .isFalse();
        assertThat(readsFiles("append", bigint, List.of(), "k", "k")).as("append").isFalse();
    }

    @Test
    void aGetThatCannotReadTheFilesFailsWithTheFileName() throws Exception {
        Table table = table(Map.of());
        long k = keyIn(table, 1);
        CountDownLatch held = holdEveryLoad(BUCKETS);
        LookupSpec spec =
                new LookupSpec(List.of("k"), new int[] {0, 1}, null, 0, 1, dir.resolve("local"));
        try (TableLookup lookup = table.newLookup(spec)) {
            lookup.start();
            assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
            List<String> lost = new ArrayList<>();
            try (Stream<java.nio.file.Path> files =
                    Files.list(dir.resolve("t").resolve("bucket-1"))) {
                for (java.nio.file.Path file : files.toList()) {
                    lost.add(file.getFileName().toString());
                    Files.delete(file);
                }
            }
            Throwable failure =
                    OwnThread.supply(
                                    () -> {
                                        try {
                                            lookup.get(GenericRowData.of(k));
                                            return null;
                                        } catch (IOException | RuntimeException e) {
                                            return e;
                                        }
                                    })
                            .get(30, TimeUnit.SECONDS);
            assertThat(failure).as("the get of key %s, in bucket 1", k).isNotNull();
            assertThat(lost).anyMatch(name -> failure.toString().contains(name));
            assertThat(release.getCount()).as("the loads still held").isOne();
        }
    }

    /** A key the table keeps in {@code bucket}. */
    private static long keyIn(Table table, int bucket) {
        for (var split : table.newScan().plan().splits()) {
            if (split.bucket() == bucket) {
                try (TableRead.SplitReader reader = table.newRead().open(split)) {
                    return reader.next().getLong(0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no rows in bucket " + bucket);
    }
}
