package dev.tarn.format.lookup;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Gets of a {@link TableLookup} by a table's whole key (KEY mode): a table of {@code rows} keys in
 * 4 buckets, every key looked up once per round in random order, after a warm-up round; then the
 * same rounds on two threads at once, each in its own order, as the subtasks of a join that share
 * one copy of the table get from it. Prints the nanoseconds per get of each round and their
 * medians, and the open time. Every round is checked: each key finds its one row with the name it
 * was written with.
 */
public final class LookupGetProbe {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "name"});

    /** CPU nanoseconds per get of the last round: on a shared machine, wall time is more. */
    private static double lastCpuNanos;

    private LookupGetProbe() {}

    /** Writes the table, opens a lookup of it and times {@code runs} rounds of gets. */
    public static void run(int rows, int runs, PrintStream out) throws IOException {
        java.nio.file.Path dir = Files.createTempDirectory("tarn-lookup-probe-");
        try {
            Table table = write(dir, rows);
            LookupSpec spec =
                    new LookupSpec(
                            List.of("id"), new int[] {0, 1}, null, 0, 1, dir.resolve("local"));
            try (TableLookup lookup = table.newLookup(spec)) {
                long start = System.nanoTime();
                lookup.open();
                long openMillis = (System.nanoTime() - start) / 1_000_000;
                long[] keys = new long[rows];
                Random random = new Random(1);
                for (int i = 0; i < rows; i++) {
                    keys[i] = random.nextInt(rows);
                }
                round(lookup, keys);
                List<Double> nanos = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    double perGet = round(lookup, keys);
                    nanos.add(perGet);
                    out.printf(
                            "round %d: %,d gets, %.0f ns per get (%.0f ns of CPU)%n",
                            r, rows, perGet, lastCpuNanos);
                }
                long[] otherKeys = keys.clone();
                shuffle(otherKeys, new Random(2));
                List<Double> shared = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    double perGet = twoThreads(lookup, keys, otherKeys);
                    shared.add(perGet);
                    out.printf(
                            "round %d on two threads: %,d gets each, %.0f ns per get%n",
                            r, rows, perGet);
                }
                out.printf(
                        "TableLookup gets, medians over %d rounds of %,d rows: %.0f ns per get by"
                                + " the whole key on one thread, %.0f on each of two at once"
                                + " (4 buckets; open %d ms, %d MiB held)%n",
                        runs,
                        rows,
                        median(nanos),
                        median(shared),
                        openMillis,
                        lookup.memoryBytes() >> 20);
            }
        } finally {
            try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                for (java.nio.file.Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static Table write(java.nio.file.Path dir, int rows) throws IOException {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.resolve("table").toUri()),
                        "probe.lookup",
                        TableSchema.create(
                                TYPE, List.of(), List.of("id"), Map.of("bucket", "4"), null));
        try (TableWrite write = table.newWrite();
                TableCommit commit = table.newCommit("probe")) {
            for (long id = 0; id < rows; id++) {
                write.write(GenericRowData.of(id, StringData.fromString("name-" + id)));
            }
            commit.commit(CommitRequest.of(1, write.prepareCommit()));
        }
        return table;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    private static void shuffle(long[] keys, Random random) {
        for (int i = keys.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long k = keys[i];
            keys[i] = keys[j];
            keys[j] = k;
        }
    }

    /**
     * A round on this thread and another at once, each over its own keys; returns the mean of their
     * nanoseconds per get.
     */
    private static double twoThreads(TableLookup lookup, long[] keys, long[] otherKeys)
            throws IOException {
        java.util.concurrent.CompletableFuture<Double> other =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return round(lookup, otherKeys);
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        },
                        r -> new Thread(r, "lookup-get-probe-2").start());
        double mine = round(lookup, keys);
        return (mine + other.join()) / 2;
    }

    /**
     * Looks every key up once, each in a new key row as a join gives it; returns nanoseconds per
     * get.
     */
    private static double round(TableLookup lookup, long[] keys) throws IOException {
        java.lang.management.ThreadMXBean threads =
                java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long found = 0;
        long check = 0;
        for (long key : keys) {
            List<RowData> got = lookup.get(GenericRowData.of(key));
            found += got.size();
            check += got.isEmpty() ? 0 : got.get(0).getString(1).toBytes().length;
        }
        double nanos = (double) (System.nanoTime() - start) / keys.length;
        lastCpuNanos = (double) (threads.getCurrentThreadCpuTime() - cpuStart) / keys.length;
        long expected = 0;
        for (long key : keys) {
            expected += ("name-" + key).length();
        }
        if (found != keys.length || check != expected) {
            throw new IllegalStateException(
                    String.format(
                            "The lookup found %d rows of %d keys (names of %d bytes, expected %d)",
                            found, keys.length, check, expected));
        }
        return nanos;
    }
}
