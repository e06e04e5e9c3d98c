package dev.tarn.format.lookup;

import static dev.tarn.format.lookup.StoreRows.ORDER;
import static dev.tarn.format.lookup.StoreRows.describe;
import static dev.tarn.format.lookup.StoreRows.key;
import static dev.tarn.format.lookup.StoreRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.lsm.RowCopier;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The spilling store of a lookup join's bucket: memory, runs on disk, and both merged. */
class SpillingBucketStoreTest {

    /** Enough for two pages of rows per store and little more: most rows end up on disk. */
    private static final long SMALL_MEMORY = 700L << 10;

    @TempDir Path dir;

    private static List<String> scan(SpillingBucketStore store, RowData key, int fields)
            throws IOException {
        List<String> found = new ArrayList<>();
        store.scan(key, fields, r -> found.add(describe(r)));
        return found;
    }

    /** The model's rows whose first {@code fields} index-key fields equal the key's, in order. */
    private static List<String> expected(
            NavigableMap<RowData, String> model, RowData key, int fields) {
        List<String> rows = new ArrayList<>();
        // The least key of the prefix: the fields after it at their least values.
        RowData from =
                GenericRowData.of(
                        key.getInt(0),
                        fields >= 2 ? key.getString(1) : StringData.fromString(""),
                        fields >= 3 ? key.getLong(2) : Long.MIN_VALUE,
                        null);
        for (Map.Entry<RowData, String> e : model.tailMap(from, true).entrySet()) {
            if (ORDER.compare(e.getKey(), key, fields) != 0) {
                break;
            }
            {
                RowData k = e.getKey();
                rows.add(
                        k.getInt(0)
                                + "/"
                                + k.getString(1)
                                + "/"
                                + k.getLong(2)
                                + "="
                                + e.getValue());
            }
        }
        return rows;
    }

    /**
     * Random puts, removes and scans by the whole key and by prefixes of 1 and 2 fields, on two
     * stores sharing a budget that spills them again and again (runs merge too), each against a
     * TreeMap in the same order.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void answersAsASortedMapWhileSpilling(long seed) throws IOException {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, Long.MAX_VALUE);
        List<SpillingBucketStore> stores = new ArrayList<>();
        List<NavigableMap<RowData, String>> models = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            stores.add(new SpillingBucketStore(ORDER, budget, dir.resolve("s" + i)));
            models.add(new TreeMap<>((x, y) -> ORDER.compare(x, y, 3)));
        }
        Random random = new Random(seed);
        int maxRuns = 0;
        for (int op = 0; op < 30_000; op++) {
            int s = random.nextInt(2);
            SpillingBucketStore store = stores.get(s);
            NavigableMap<RowData, String> model = models.get(s);
            int a = random.nextInt(10);
            int b = random.nextInt(30);
            long c = random.nextInt(40);
            int what = random.nextInt(10);
            if (what < 6) {
                String payload = op + "x".repeat(random.nextInt(120));
                store.put(row(a, b, c, payload));
                model.put(key(a, b, c), payload);
            } else if (what < 8) {
                store.remove(key(a, b, c));
                model.remove(key(a, b, c));
            } else {
                int fields = 1 + random.nextInt(3);
                assertThat(scan(store, key(a, b, c), fields))
                        .as("op %d: scan of %d fields of %d/%d/%d", op, fields, a, b, c)
                        .isEqualTo(expected(model, key(a, b, c), fields));
            }
            maxRuns = Math.max(maxRuns, store.runs());
        }
        for (int s = 0; s < 2; s++) {
            for (int a = 0; a < 10; a++) {
                assertThat(scan(stores.get(s), key(a, 0, 0), 1))
                        .isEqualTo(expected(models.get(s), key(a, 0, 0), 1));
            }
        }
        assertThat(maxRuns).as("runs reached").isEqualTo(SpillingBucketStore.MAX_RUNS);
        assertThat(budget.memoryUsed()).isLessThanOrEqualTo(SMALL_MEMORY);
        for (SpillingBucketStore store : stores) {
            store.close();
        }
        assertThat(budget.memoryUsed()).isZero();
        assertThat(budget.diskUsed()).isZero();
    }

    /** Spills write runs; past MAX_RUNS they merge into one; removed keys stay removed. */
    @Test
    void mergesRunsAndKeepsRemovalsAcrossThem() throws IOException {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, Long.MAX_VALUE);
        SpillingBucketStore store = new SpillingBucketStore(ORDER, budget, dir);
        String payload = "p".repeat(200);
        int n = 40_000;
        int maxRuns = 0;
        for (int i = 0; i < n; i++) {
            store.put(row(i % 7, i % 13, i, payload));
            if (i % 3 == 0 && i > 0) {
                // Its row is most likely in a run by now: a tombstone must hide it.
                store.remove(key((i - 1) % 7, (i - 1) % 13, i - 1));
            }
            maxRuns = Math.max(maxRuns, store.runs());
        }
        assertThat(maxRuns).isEqualTo(SpillingBucketStore.MAX_RUNS);
        assertThat(store.diskBytes()).isPositive();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(store.runs());
        }
        for (int i = 0; i < n; i++) {
            List<String> found = scan(store, key(i % 7, i % 13, i), 3);
            boolean removed = i % 3 == 2 && i < n - 1;
            assertThat(found).as("key %d", i).hasSize(removed ? 0 : 1);
        }
        store.close();
    }

    @Test
    void aPutBeyondTheDiskLimitNamesTheOption() {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, 100_000);
        SpillingBucketStore store = new SpillingBucketStore(ORDER, budget, dir);
        assertThatThrownBy(
                        () -> {
                            for (int i = 0; i < 100_000; i++) {
                                store.put(row(1, 1, i, "p".repeat(100)));
                            }
                        })
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("beyond lookup.cache-max-disk-size = 100000 bytes")
                .hasMessageMatching("The lookup cache needs \\d+ bytes of local disk .*");
        assertThat(budget.diskUsed()).isLessThanOrEqualTo(100_000);
    }

    @Test
    void aCorruptBlockNamesTheFileAndOffset() throws IOException {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, Long.MAX_VALUE);
        SpillingBucketStore store = new SpillingBucketStore(ORDER, budget, dir);
        for (int i = 0; store.runs() == 0; i++) {
            store.put(row(1, 1, i, "p".repeat(100)));
        }
        Path file;
        try (Stream<Path> files = Files.list(dir)) {
            file = files.findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(100);
            int b = raf.read();
            raf.seek(100);
            raf.write(b ^ 0x55);
        }
        assertThatThrownBy(() -> scan(store, key(1, 1, 0), 3))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Lookup spill file "
                                + file
                                + " is corrupt: the block at offset 0 is unreadable, its checksum is");
        store.close();
    }

    @Test
    void closeDeletesItsFilesAndReleasesItsMemory() throws IOException {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, Long.MAX_VALUE);
        SpillingBucketStore store = new SpillingBucketStore(ORDER, budget, dir);
        for (int i = 0; store.runs() < 2; i++) {
            store.put(row(1, 1, i, "p".repeat(100)));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(2);
        }
        store.close();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.count()).isZero();
        }
        assertThat(budget.memoryUsed()).isZero();
        assertThat(budget.diskUsed()).isZero();
        assertThat(store.memoryBytes()).isZero();
        assertThat(store.diskBytes()).isZero();
    }

    /**
     * One thread puts and removes other keys (spilling and merging runs) while three scan keys
     * whose rows never change: every scan finds them.
     */
    @Test
    void scansFindUnchangedRowsWhileAnotherThreadWrites() throws Exception {
        LookupBudget budget = new LookupBudget(SMALL_MEMORY, Long.MAX_VALUE);
        SpillingBucketStore store = new SpillingBucketStore(ORDER, budget, dir);
        for (int i = 0; i < 1000; i++) {
            store.put(row(i % 10, 5, i, "stable-" + i));
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer =
                new Thread(
                        () -> {
                            Random random = new Random(11);
                            try {
                                for (int op = 0; op < 80_000 && failure.get() == null; op++) {
                                    long c = 1000 + random.nextInt(20_000);
                                    if (random.nextInt(4) == 0) {
                                        store.remove(key((int) (c % 10), 5, c));
                                    } else {
                                        store.put(row((int) (c % 10), 5, c, "w".repeat(150)));
                                    }
                                }
                            } catch (Throwable t) {
                                failure.compareAndSet(null, t);
                            } finally {
                                done.set(true);
                            }
                        });
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int seed = t;
            readers.add(
                    new Thread(
                            () -> {
                                Random random = new Random(seed);
                                try {
                                    while (!done.get() && failure.get() == null) {
                                        int i = random.nextInt(1000);
                                        List<String> found = scan(store, key(i % 10, 5, i), 3);
                                        if (!found.equals(
                                                List.of(
                                                        (i % 10)
                                                                + "/customer-5/"
                                                                + i
                                                                + "=stable-"
                                                                + i))) {
                                            throw new AssertionError("key " + i + ": " + found);
                                        }
                                    }
                                } catch (Throwable e) {
                                    failure.compareAndSet(null, e);
                                }
                            }));
        }
        writer.start();
        readers.forEach(Thread::start);
        writer.join();
        for (Thread reader : readers) {
            reader.join();
        }
        assertThat(failure.get()).isNull();
        assertThat(store.diskBytes()).isPositive();
        store.close();
    }

    /**
     * Prints the cost of a get and a put by a BIGINT key (a dimension table's id), at 250,000 and
     * 1,000,000 keys in memory, and at 1,000,000 with a budget of a tenth of the rows' size.
     */
    @Test
    void printsNanosPerGetAndPut() throws IOException {
        measure(250_000, 1L << 30, "in memory");
        measure(1_000_000, 1L << 30, "in memory");
        // Rows of ~48 bytes, their entries ~68 bytes: a tenth of the rows' size.
        measure(1_000_000, 7L << 20, "budget of a tenth");
    }

    private void measure(int n, long memory, String what) throws IOException {
        RowType type =
                RowType.of(
                        new LogicalType[] {
                            new BigIntType(false), new VarCharType(true, 100), new IntType(true)
                        },
                        new String[] {"id", "name", "tier"});
        IndexOrder order = new IndexOrder(type, new int[] {0});
        RowCopier copier = new RowCopier(type);
        LookupBudget budget = new LookupBudget(memory, Long.MAX_VALUE);
        SpillingBucketStore store =
                new SpillingBucketStore(order, budget, dir.resolve(what.replace(' ', '-') + n));
        Random random = new Random(5);
        BinaryRowData[] rows = new BinaryRowData[n];
        for (int i = 0; i < n; i++) {
            long id = random.nextLong();
            rows[i] = copier.copy(GenericRowData.of(id, StringData.fromString("name-" + i), i % 5));
        }
        long start = System.nanoTime();
        for (BinaryRowData row : rows) {
            store.put(row);
        }
        long putNanos = System.nanoTime() - start;
        GenericRowData[] keys = new GenericRowData[1 << 16];
        for (int i = 0; i < keys.length; i++) {
            // Half hits, half misses.
            long id = i % 2 == 0 ? rows[random.nextInt(n)].getLong(0) : random.nextLong();
            keys[i] = GenericRowData.of(id, null, null);
        }
        int[] hits = new int[1];
        int gets = 200_000;
        for (int i = 0; i < gets; i++) { // warms up
            store.scan(keys[i & (keys.length - 1)], 1, r -> hits[0]++);
        }
        hits[0] = 0;
        start = System.nanoTime();
        for (int i = 0; i < gets; i++) {
            store.scan(keys[(i + 12345) & (keys.length - 1)], 1, r -> hits[0]++);
        }
        long getNanos = System.nanoTime() - start;
        System.out.printf(
                "SpillingBucketStore %s, %d keys: %d ns per put, %d ns per get (%d of %d hit),"
                        + " %d MB in memory, %d MB on disk in %d runs%n",
                what,
                n,
                putNanos / n,
                getNanos / gets,
                hits[0],
                gets,
                store.memoryBytes() >> 20,
                store.diskBytes() >> 20,
                store.runs());
        store.close();
    }

    /**
     * Gets by the whole key of a store large enough for the hash index of its memory rows: after
     * each round of new keys (merges move every entry), replacements in place and elsewhere in the
     * pages, removals, revivals and compactions of the pages, every key finds exactly the model's
     * row, before and after a spill.
     */
    @Test
    void wholeKeyGetsFollowMergesReplacementsAndRemovalsOfALargeStore() throws IOException {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                        new String[] {"id", "v"});
        IndexOrder order = new IndexOrder(type, new int[] {0});
        SpillingBucketStore store =
                new SpillingBucketStore(
                        order, new LookupBudget(64L << 20, Long.MAX_VALUE), dir.resolve("hash"));
        Map<Long, String> model = new java.util.HashMap<>();
        Random random = new Random(7);
        dev.tarn.format.lsm.RowBytes bytes = new dev.tarn.format.lsm.RowBytes(type);
        for (int round = 0; round < 6; round++) {
            for (int i = 0; i < 3000; i++) {
                long id = random.nextInt(20_000);
                if (random.nextInt(5) == 0) {
                    store.remove(GenericRowData.of(id, null));
                    model.remove(id);
                } else {
                    // Of varying length: a replacement that does not fit moves its row, and the
                    // garbage it leaves makes the pages compact, moving others.
                    String v = "r" + round + "-" + id + "-".repeat(random.nextInt(48));
                    store.put(bytes.encode(GenericRowData.of(id, StringData.fromString(v))));
                    model.put(id, v);
                }
                // At once, by the index the last round's gets built (until a merge drops it).
                checkGet(store, model, id, round);
            }
            if (round == 4) {
                store.trySpill();
                assertThat(store.runs()).isEqualTo(1);
            }
            for (long id = 0; id < 20_000; id++) {
                checkGet(store, model, id, round);
            }
        }
        store.close();
    }

    private static void checkGet(
            SpillingBucketStore store, Map<Long, String> model, long id, int round)
            throws IOException {
        List<String> found = new ArrayList<>();
        store.scan(GenericRowData.of(id, null), 1, r -> found.add(r.getString(1).toString()));
        String expected = model.get(id);
        assertThat(found)
                .as("key %d in round %d", id, round)
                .isEqualTo(expected == null ? List.of() : List.of(expected));
    }
}
