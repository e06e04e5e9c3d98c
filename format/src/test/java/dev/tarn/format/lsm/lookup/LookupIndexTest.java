package dev.tarn.format.lsm.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.TestRows;
import dev.tarn.format.lsm.tree.LookupBucket;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lookup index of a bucket: a sorted run of current rows within a memory limit. */
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
        LookupIndex index = emptyIndex(SCHEMA, memory);
        Map<Integer, String> model = new HashMap<>();
        Random random = new Random(7);
        for (int op = 0; op < 300_000; op++) {
            int k = random.nextInt(5_000);
            // Rows of 0 to 80 bytes of text: some fit their entry, some move.
            BinaryRowData row =
                    random.nextInt(8) == 0 ? null : row(k, op, "x".repeat(random.nextInt(80)));
            step(index, model, TestRows.row(k, 0L, ""), k, row, "op " + op);
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

    /**
     * Passes of ascending keys, as a flush's changes look keys up: updates, removes, keys new
     * between and beyond the others, removed keys coming back. By a number key, whose prefix
     * decides, and by a string key whose first 8 bytes all keys share, so that every comparison
     * reads the entries.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void passesInKeyOrderFindWhatTheLastPassesLeft(int keyField) {
        KeyValueSchema schema = new KeyValueSchema(LookupBucket.TABLE, new int[] {keyField});
        LookupIndex index = emptyIndex(schema, new LookupMemory(64L << 20));
        Map<Integer, String> model = new HashMap<>();
        Random random = new Random(11);
        for (int pass = 0; pass < 50; pass++) {
            TreeSet<Integer> keys = new TreeSet<>();
            int n = 1 + random.nextInt(3_000);
            // Early passes add keys beyond the others; later ones mostly between them.
            int range = pass < 5 ? (pass + 1) * 2_000 : 20_000;
            while (keys.size() < Math.min(n, range)) {
                keys.add(random.nextInt(range));
            }
            for (int k : keys) {
                BinaryRowData row =
                        random.nextInt(6) == 0
                                ? null
                                : keyRow(keyField, k, pass, "x".repeat(random.nextInt(40)));
                step(index, model, keyRow(keyField, k, 0L, ""), k, row, "pass " + pass);
            }
        }
        assertThat(index.size()).isEqualTo(model.size());
        for (int k = 20_000; k >= 0; k--) {
            BinaryRowData found = index.find(keyRow(keyField, k, 0L, ""));
            assertThat(found == null ? null : LookupBucket.text(found))
                    .as("descending, key %d", k)
                    .isEqualTo(model.get(k));
        }
        index.release();
    }

    /** A new index in {@code memory}, pinned and reset. */
    private static LookupIndex emptyIndex(KeyValueSchema schema, LookupMemory memory) {
        LookupIndex index = new LookupIndex(schema, memory);
        memory.pin(index);
        assertThat(index.reset()).isTrue();
        return index;
    }

    /**
     * Looks up the key of {@code probe} ({@code k} of the model), checks what it finds against the
     * model, then puts {@code row} for it, or removes it where {@code row} is null.
     */
    private static void step(
            LookupIndex index,
            Map<Integer, String> model,
            RowData probe,
            int k,
            BinaryRowData row,
            String step) {
        BinaryRowData found = index.find(probe);
        assertThat(found == null ? null : LookupBucket.text(found))
                .as("%s, key %d", step, k)
                .isEqualTo(model.get(k));
        if (row == null) {
            index.remove();
            model.remove(k);
        } else {
            assertThat(index.put(row)).isTrue();
            model.put(k, LookupBucket.text(row));
        }
    }

    /**
     * A row of key {@code k} by field 0 and by field 2: its text is k padded, then, where the key
     * is field 0, {@code tail}, so that rows of a key differ in size.
     */
    private BinaryRowData keyRow(int keyField, int k, long a, String tail) {
        return row(k, a, String.format("key-%08d", k) + (keyField == 0 ? tail : ""));
    }

    @Test
    void anIndexOverTheLimitIsDroppedAndOneBesideOthersEvictsThem() {
        // A page and two empty indexes, plus a little: one index with a page, not two.
        long one = RowPages.PAGE_BYTES + 2 * LookupIndex.EMPTY_BYTES + 4096;
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
