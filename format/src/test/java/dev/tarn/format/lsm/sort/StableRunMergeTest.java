package dev.tarn.format.lsm.sort;

import static dev.tarn.format.lsm.MergeTestSupport.KEY;
import static dev.tarn.format.lsm.MergeTestSupport.TABLE;
import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.MergeTestSupport;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** Flushing a buffer that did not spill: the same results as the general merge, without copies. */
class StableRunMergeTest {

    @Test
    void agreesWithTheGeneralMergeForEveryEngine() {
        for (String engine : List.of("deduplicate", "partial-update", "aggregation", "first-row")) {
            Random random = new Random(engine.hashCode());
            KeyComparator keys = new KeyComparator(TABLE, KEY);
            try (SortBuffer buffer = SortBuffer.inMemory(keys, 1 << 20)) {
                for (int seq = 0; seq < 2_000; seq++) {
                    boolean delete = engine.equals("deduplicate") && random.nextInt(6) == 0;
                    Long a = random.nextInt(5) == 0 ? null : (long) random.nextInt(100);
                    String b = random.nextInt(5) == 0 ? null : "s" + random.nextInt(50);
                    buffer.put(
                            seq,
                            delete ? RowKind.DELETE : RowKind.INSERT,
                            row(random.nextInt(200), a, b, seq));
                }
                List<List<Object>> general =
                        describeAll(
                                new MergeIterator(
                                        List.of(buffer.iterator()),
                                        keys,
                                        MergeTestSupport.engine(engine, Map.of()),
                                        false),
                                TABLE);
                List<List<Object>> stable =
                        describeAll(
                                new StableRunMerge(
                                        buffer.stableIterator(),
                                        keys,
                                        MergeTestSupport.engine(engine, Map.of()),
                                        false),
                                TABLE);
                assertThat(stable).as(engine).isEqualTo(general).hasSizeLessThanOrEqualTo(200);
            }
        }
    }
}
