package dev.tarn.format.lsm.sort;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.TestRows;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.schema.MergeEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The LSM pieces together against a plain map: thousands of random upserts and deletes over 50 keys
 * go into a small spilling sort buffer; random flushes turn the buffer into a sorted run (as it is,
 * several versions per key, or merged); random compactions merge the newest k runs with {@link
 * MergeIterator}, dropping tombstones only when the oldest run takes part. After every step a read
 * (all runs plus the buffer, merged) must equal the model's map.
 */
class LsmModelTest {

    private static final KeyComparator KEYS = new KeyComparator(TABLE, KEY);
    private static final int KEY_SPACE = 50;
    private static final int STEPS = 2000;

    @TempDir Path spillDirectory;

    /** A merge engine with its options and what it does to the map. */
    enum Engine {
        DEDUPLICATE(MergeEngine.DEDUPLICATE, Map.of(), true),
        DEDUPLICATE_SEQUENCE_FIELD(MergeEngine.DEDUPLICATE, Map.of("sequence.field", "c"), false),
        PARTIAL_UPDATE(MergeEngine.PARTIAL_UPDATE, Map.of("ignore-delete", "true"), true),
        AGGREGATION_SUM(
                MergeEngine.AGGREGATION,
                Map.of(
                        "fields.a.aggregate-function", "sum",
                        "fields.c.aggregate-function", "sum",
                        "fields.b.ignore-retract", "true"),
                true),
        FIRST_ROW(MergeEngine.FIRST_ROW, Map.of(), true);

        final MergeEngine engine;
        final Map<String, String> options;

        /**
         * Whether the workload deletes; see {@code merge.SequenceFieldMergeFunction} for why not.
         */
        final boolean deletes;

        Engine(MergeEngine engine, Map<String, String> options, boolean deletes) {
            this.engine = engine;
            this.options = options;
            this.deletes = deletes;
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void randomChangesFlushesAndCompactionsMatchAMap(Engine engine) {
        Random random = new Random(42 + engine.ordinal());
        MergeFunction merge = MergeFunctions.create(engine.engine, TABLE, KEY, engine.options);
        RowCopier copier = new RowCopier(TABLE);
        Map<Integer, Object[]> model = new TreeMap<>();
        /** Runs oldest first, each a list of copied key values in (key, sequence) order. */
        List<List<KeyValue>> runs = new ArrayList<>();
        int flushes = 0;
        int compactions = 0;
        int spilledFlushes = 0;
        try (SortBuffer buffer = SortBuffer.spillable(KEYS, 1024, spillDirectory, 3)) {
            for (int step = 1; step <= STEPS; step++) {
                int action = random.nextInt(100);
                spilledFlushes +=
                        action >= 90 && action < 95 && buffer.spillFileCount() > 0 ? 1 : 0;
                if (action < 90) {
                    KeyValue change = randomChange(random, step, engine.deletes);
                    if (!buffer.put(change.sequence(), change.kind(), change.row())) {
                        spilledFlushes++;
                        flush(buffer, runs, merge, copier, random);
                        flushes++;
                        assertThat(buffer.put(change.sequence(), change.kind(), change.row()))
                                .isTrue();
                    }
                    apply(engine, model, change);
                } else if (action < 95) {
                    flush(buffer, runs, merge, copier, random);
                    flushes++;
                } else if (runs.size() >= 2) {
                    int count = 2 + random.nextInt(runs.size() - 1);
                    compactNewest(runs, count, merge, copier);
                    compactions++;
                }
                assertThat(read(runs, buffer, merge))
                        .as("step %d of %s", step, engine)
                        .isEqualTo(expected(model));
            }
        }
        assertThat(flushes).isGreaterThan(50);
        assertThat(spilledFlushes).as("flushes of a buffer that had spilled").isGreaterThan(20);
        assertThat(compactions).isGreaterThan(50);
    }

    private static KeyValue randomChange(Random random, long sequence, boolean deletes) {
        RowKind kind =
                deletes && random.nextInt(10) < 3
                        ? (random.nextBoolean() ? RowKind.DELETE : RowKind.UPDATE_BEFORE)
                        : (random.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER);
        GenericRowData row =
                TestRows.row(
                        random.nextInt(KEY_SPACE),
                        random.nextInt(4) == 0 ? null : (long) random.nextInt(1000),
                        random.nextInt(4) == 0 ? null : "v" + sequence,
                        random.nextInt(4) == 0 ? null : random.nextInt(20));
        row.setRowKind(kind);
        return new KeyValue(sequence, kind, row);
    }

    /** What each engine does to the map; values are [k, a, b, c] plus, for sequence.field, seq. */
    private static void apply(Engine engine, Map<Integer, Object[]> model, KeyValue change) {
        GenericRowData row = (GenericRowData) change.row();
        int key = row.getInt(0);
        Object[] values = {key, row.getField(1), str(row.getField(2)), row.getField(3)};
        Object[] current = model.get(key);
        boolean retract = change.isRetraction();
        switch (engine) {
            case DEDUPLICATE:
                if (retract) {
                    model.remove(key);
                } else {
                    model.put(key, values);
                }
                break;
            case DEDUPLICATE_SEQUENCE_FIELD:
                // Wins if (c, sequence) is larger, null c smallest.
                if (current == null || compareSequenceField(values[3], current[3]) >= 0) {
                    model.put(key, values);
                }
                break;
            case PARTIAL_UPDATE:
                if (!retract) {
                    Object[] merged =
                            current == null ? new Object[] {key, null, null, null} : current;
                    for (int i = 1; i < 4; i++) {
                        if (values[i] != null) {
                            merged[i] = values[i];
                        }
                    }
                    model.put(key, merged);
                }
                break;
            case AGGREGATION_SUM:
                Object[] sums = current == null ? new Object[] {key, null, null, null} : current;
                int sign = retract ? -1 : 1;
                if (values[1] != null) {
                    sums[1] = (sums[1] == null ? 0L : (Long) sums[1]) + sign * (Long) values[1];
                }
                if (values[3] != null) {
                    sums[3] =
                            (sums[3] == null ? 0 : (Integer) sums[3]) + sign * (Integer) values[3];
                }
                if (!retract && values[2] != null) {
                    sums[2] = values[2];
                }
                model.put(key, sums);
                break;
            default: // FIRST_ROW
                if (!retract) {
                    model.putIfAbsent(key, values);
                }
        }
    }

    private static int compareSequenceField(Object a, Object b) {
        if (a == null || b == null) {
            return Boolean.compare(a != null, b != null) == 0
                    ? 1
                    : Boolean.compare(a != null, b != null);
        }
        int c = Integer.compare((Integer) a, (Integer) b);
        return c == 0 ? 1 : c; // equal c: the later change has the larger sequence
    }

    private static Object str(Object value) {
        return value == null ? null : value.toString();
    }

    private static void flush(
            SortBuffer buffer,
            List<List<KeyValue>> runs,
            MergeFunction merge,
            RowCopier copier,
            Random random) {
        Iterator<KeyValue> sorted = buffer.iterator();
        if (random.nextBoolean()) {
            // A raw run, several versions per key, as a writer without a merge would flush it.
            runs.add(copyAll(sorted, copier));
        } else {
            runs.add(
                    copyAll(
                            new MergeIterator(List.of(sorted), KEYS, merge, runs.isEmpty()),
                            copier));
        }
        buffer.clear();
    }

    private static void compactNewest(
            List<List<KeyValue>> runs, int count, MergeFunction merge, RowCopier copier) {
        int first = runs.size() - count;
        List<Iterator<KeyValue>> inputs = new ArrayList<>();
        for (List<KeyValue> run : runs.subList(first, runs.size())) {
            inputs.add(TestRows.reusing(run, TABLE));
        }
        List<KeyValue> merged = copyAll(new MergeIterator(inputs, KEYS, merge, first == 0), copier);
        runs.subList(first, runs.size()).clear();
        runs.add(merged);
    }

    private static List<KeyValue> copyAll(Iterator<KeyValue> iterator, RowCopier copier) {
        List<KeyValue> copies = new ArrayList<>();
        while (iterator.hasNext()) {
            copies.add(copier.copy(iterator.next()));
        }
        return copies;
    }

    private static Map<Integer, List<Object>> read(
            List<List<KeyValue>> runs, SortBuffer buffer, MergeFunction merge) {
        List<Iterator<KeyValue>> inputs = new ArrayList<>();
        for (List<KeyValue> run : runs) {
            inputs.add(run.iterator());
        }
        inputs.add(buffer.iterator());
        Map<Integer, List<Object>> result = new TreeMap<>();
        Integer previous = null;
        for (Iterator<KeyValue> it = new MergeIterator(inputs, KEYS, merge, true); it.hasNext(); ) {
            KeyValue kv = it.next();
            assertThat(kv.isRetraction()).as("reads drop tombstones").isFalse();
            int key = kv.row().getInt(0);
            assertThat(previous == null || previous < key).as("keys ascend, once each").isTrue();
            previous = key;
            RowData row = kv.row();
            result.put(
                    key,
                    Arrays.asList(
                            key,
                            row.isNullAt(1) ? null : row.getLong(1),
                            row.isNullAt(2) ? null : row.getString(2).toString(),
                            row.isNullAt(3) ? null : row.getInt(3)));
        }
        return result;
    }

    private static Map<Integer, List<Object>> expected(Map<Integer, Object[]> model) {
        Map<Integer, List<Object>> result = new TreeMap<>();
        model.forEach((key, values) -> result.put(key, Arrays.asList(values.clone())));
        return result;
    }
}
