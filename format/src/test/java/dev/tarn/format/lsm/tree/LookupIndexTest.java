package dev.tarn.format.lsm.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.TestRows;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.Test;

/** The lookup index of a bucket: a hash table of current rows within a memory limit. */
class LookupIndexTest {

    private static final KeyValueSchema SCHEMA =
            new KeyValueSchema(LookupBucket.TABLE, new int[] {0});
    private final RowCopier copier = new RowCopier(LookupBucket.TABLE);

    private BinaryRowData row(int k, long a, String b) {
        return copier.copy(TestRows.row(k, a, b));
    }

    @Test
    void holdsTheLatestRowOfEveryKeyAndFreesWhatItReplaced() {
        LookupMemory memory = new LookupMemory(64L << 20);
        LookupIndex index = new LookupIndex(SCHEMA, memory);
        memory.pin(index);
        assertThat(index.reset()).isTrue();
        Map<Integer, String> model = new HashMap<>();
        Random random = new Random(7);
        for (int op = 0; op < 300_000; op++) {
            int k = random.nextInt(5_000);
            BinaryRowData found = index.find(TestRows.row(k, 0L, ""));
            assertThat(found == null ? null : LookupBucket.text(found))
                    .as("op %d, key %d", op, k)
                    .isEqualTo(model.get(k));
            if (random.nextInt(8) == 0) {
                index.remove();
                model.remove(k);
            } else {
                // Rows of 0 to 80 bytes of text: some fit their entry, some move.
                BinaryRowData row = row(k, op, "x".repeat(random.nextInt(80)));
                assertThat(index.put(row)).isTrue();
                model.put(k, LookupBucket.text(row));
            }
        }
        assertThat(index.size()).isEqualTo(model.size());
        for (int k = 0; k < 5_000; k++) {
            RowData found = index.find(TestRows.row(k, 0L, ""));
            assertThat(found == null ? null : LookupBucket.text(found)).isEqualTo(model.get(k));
        }
        // Live entries take under 600 KB; without compaction the moved ones would take ~10 MB.
        assertThat(index.reservedBytes()).isLessThan(2L << 20);
        assertThat(memory.used()).isEqualTo(index.reservedBytes());
        index.release();
        assertThat(memory.used()).isZero();
    }

    @Test
    void anIndexOverTheLimitIsDroppedAndOneBesideOthersEvictsThem() {
        // A page and two of the smallest tables, plus a little: one index with a page, not two.
        long one = LookupIndex.PAGE_BYTES + 2 * 8 * 1024 + 4096;
        LookupMemory memory = new LookupMemory(one);
        LookupIndex first = new LookupIndex(SCHEMA, memory);
        LookupIndex second = new LookupIndex(SCHEMA, memory);
        memory.pin(first);
        assertThat(first.reset()).isTrue();
        first.find(TestRows.row(1, 0L, ""));
        assertThat(first.put(row(1, 1L, "a"))).isTrue();

        memory.pin(second);
        assertThat(second.reset()).isTrue();
        second.find(TestRows.row(2, 0L, ""));
        assertThat(second.put(row(2, 2L, "b"))).as("the first index is pinned: no room").isFalse();
        assertThat(second.isDropped()).isTrue();
        assertThat(second.tooLarge()).as("it would fit alone").isFalse();

        memory.unpin(first);
        assertThat(second.reset()).isTrue();
        second.find(TestRows.row(2, 0L, ""));
        assertThat(second.put(row(2, 2L, "b"))).as("evicts the first").isTrue();
        assertThat(first.isDropped()).isTrue();
        assertThat(memory.evictions()).isEqualTo(1);
        assertThat(memory.used()).isEqualTo(second.reservedBytes()).isLessThanOrEqualTo(one);

        boolean fits = true;
        for (int k = 3; fits && k < 100_000; k++) {
            second.find(TestRows.row(k, 0L, ""));
            fits = second.put(row(k, k, "filler"));
        }
        assertThat(fits).as("a bucket over the limit").isFalse();
        assertThat(second.isDropped()).isTrue();
        assertThat(second.tooLarge()).isTrue();
        assertThat(memory.used()).isZero();
    }
}
