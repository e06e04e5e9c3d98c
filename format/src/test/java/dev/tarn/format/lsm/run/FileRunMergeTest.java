package dev.tarn.format.lsm.run;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.TestRows.kv;
import static dev.tarn.format.lsm.TestRows.reusing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.MergeTestSupport;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * Merging runs of data files (one change per key per run) in place: the same results as the copying
 * merge, over runs that overwrite their row object on every step.
 */
class FileRunMergeTest {

    @Test
    void agreesWithTheCopyingMergeOverReusedRows() {
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
                List<Iterator<KeyValue>> copying = new ArrayList<>();
                List<Iterator<KeyValue>> inPlace = new ArrayList<>();
                for (List<KeyValue> run : runs) {
                    copying.add(reusing(run, TABLE));
                    inPlace.add(reusing(run, TABLE));
                }
                List<List<Object>> expected =
                        describeAll(
                                new MergeIterator(
                                        copying,
                                        keys,
                                        MergeTestSupport.engine(engine, Map.of()),
                                        dropDeletes),
                                TABLE);
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
}
