package dev.tarn.format.lsm.run;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static dev.tarn.format.lsm.TestRows.describe;
import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.TestRows.kv;
import static dev.tarn.format.lsm.TestRows.reusing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.MergeTestSupport;
import dev.tarn.format.lsm.merge.MergeFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * Merging runs of data files (one change per key per run) in place: the same results as folding
 * each key's versions in sequence order by hand, over runs that overwrite their row object on every
 * step.
 */
class FileRunMergeTest {

    @Test
    void agreesWithFoldingEachKeyByHandOverReusedRows() {
        for (String engine : List.of("deduplicate", "partial-update", "aggregation", "first-row")) {
            for (boolean dropDeletes : new boolean[] {false, true}) {
                Random random = new Random(31L * engine.hashCode() + (dropDeletes ? 1 : 0));
                List<List<KeyValue>> runs = new ArrayList<>();
                long sequence = 0;
                for (int r = 0; r < 4; r++) {
                    List<KeyValue> run = new ArrayList<>();
                    for (int key = 0; key < 300; key++) {
                        if (random.nextInt(3) != 0) {
                            continue;
                        }
                        boolean delete = engine.equals("deduplicate") && random.nextInt(5) == 0;
                        Long a = random.nextInt(5) == 0 ? null : (long) random.nextInt(100);
                        String b = random.nextInt(5) == 0 ? null : "s" + random.nextInt(50);
                        run.add(
                                kv(
                                        sequence++,
                                        delete ? RowKind.DELETE : RowKind.INSERT,
                                        key,
                                        a,
                                        b,
                                        r));
                    }
                    runs.add(run);
                }
                KeyComparator keys = new KeyComparator(TABLE, KEY);
                List<Iterator<KeyValue>> inPlace = new ArrayList<>();
                for (List<KeyValue> run : runs) {
                    inPlace.add(reusing(run, TABLE));
                }
                List<List<Object>> expected =
                        foldByHand(runs, MergeTestSupport.engine(engine, Map.of()), dropDeletes);
                List<List<Object>> actual =
                        describeAll(
                                new FileRunMerge(
                                        inPlace,
                                        keys,
                                        MergeTestSupport.engine(engine, Map.of()),
                                        dropDeletes),
                                TABLE);
                assertThat(actual)
                        .as("%s, drop deletes %s", engine, dropDeletes)
                        .isEqualTo(expected);
                assertThat(actual).isNotEmpty();
            }
        }
    }

    /**
     * The model: every key's versions from all runs, in sequence order (each sequence is given
     * once), folded by a fresh merge; keys in ascending order, tombstones dropped if asked to.
     */
    private static List<List<Object>> foldByHand(
            List<List<KeyValue>> runs, MergeFunction merge, boolean dropDeletes) {
        Map<Integer, List<KeyValue>> byKey = new TreeMap<>();
        for (List<KeyValue> run : runs) {
            for (KeyValue kv : run) {
                byKey.computeIfAbsent(kv.row().getInt(0), k -> new ArrayList<>()).add(kv);
            }
        }
        List<List<Object>> results = new ArrayList<>();
        for (List<KeyValue> versions : byKey.values()) {
            versions.sort(Comparator.comparingLong(KeyValue::sequence));
            merge.reset();
            versions.forEach(merge::add);
            KeyValue result = merge.result();
            if (result != null && !(dropDeletes && result.isRetraction())) {
                results.add(describe(result, TABLE));
            }
        }
        return results;
    }
}
